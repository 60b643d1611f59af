// Node.js (22 to 26) has no Symbol.metadata yet; standard decorators need it to share metadata between the decorators of
// one class. Using the well-known registry name keeps us compatible with compilers' own lowering.
const symbolCtor = Symbol as unknown as { metadata?: symbol };
symbolCtor.metadata ??= Symbol.for('Symbol.metadata');

export const metadataSymbol: symbol = symbolCtor.metadata;
