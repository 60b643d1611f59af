export async function run(_args: string[]): Promise<number> {
  process.stderr.write('trellis harness: the harness is not available in this build yet\n');
  return 1;
}
