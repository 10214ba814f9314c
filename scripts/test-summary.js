#!/usr/bin/env node
// Prints one plain closing line, "N passed, N failed, N skipped", summed over jest --json result files.
const fs = require('node:fs');
let passed = 0,
  failed = 0,
  skipped = 0,
  suitesFailed = 0;
for (const file of process.argv.slice(2)) {
  let r;
  try {
    r = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    console.log(`(no jest results in ${file})`);
    failed += 1;
    continue;
  }
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + r.numTodoTests;
  suitesFailed += r.numFailedTestSuites;
  for (const suite of r.testResults.filter((s) => s.status === 'failed')) {
    console.log(`FAILED ${suite.name}`);
  }
}
if (suitesFailed > 0 && failed === 0) failed = suitesFailed; // a suite that failed to load counts as a failure
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
