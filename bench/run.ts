/**
 * Runs every benchmark in turn (`npm run bench`). Each prints its own figures as ratios against a baseline
 * measured in the same run; this runner only sequences them so they never compete for the two cores.
 */
async function printed<R>(m: { run(print?: (line: string) => void): Promise<R>; report(r: R): string }): Promise<void> {
  // A bench that prints its figures as it goes gets console.log for that; the report closes with all of them.
  console.log(m.report(await m.run((line) => console.log(line))));
}

async function main(): Promise<void> {
  const only = process.argv[2];
  const benches: [string, () => Promise<unknown>][] = [
    ['delta-clone', async () => printed(await import('./delta-clone'))],
    ['clone-catalog', async () => printed(await import('./clone-catalog'))],
    ['ledger', async () => printed(await import('./ledger'))],
    ['web-console', async () => printed(await import('./web-console'))],
  ];
  for (const [name, run] of benches) {
    if (only && only !== name) continue;
    console.log(`\n=== ${name} ===`);
    await run();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
