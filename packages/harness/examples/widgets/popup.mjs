// Popup html actions: each term opens its explanation in a popup without calling any function. The popup's
// HTML is the content of the <cwdb-action> element.
const TERMS = [
  ['Period', 'The length of time, in seconds, that each data point covers.'],
  ['Statistic', 'How data points within a period are aggregated: Average, Sum, Maximum …'],
  ['Alarm', 'Watches one metric and changes state when it crosses a threshold.'],
];

export const handler = async (event) => {
  if (event.describe) return 'A glossary: clicking a term opens its explanation in a popup (an **html** action).';
  const items = TERMS.map(
    ([term, text]) =>
      `<li><a>${term}</a><cwdb-action action="html" display="popup"><h4>${term}</h4><p>${text}</p></cwdb-action></li>`,
  ).join('');
  return `<p>Click a term:</p><ul class="glossary">${items}</ul>`;
};
