import { DefaultLogger, Runtime } from '@temporalio/worker';

// Worker state changes are INFO-level noise in test output; keep warnings and errors.
Runtime.install({ logger: new DefaultLogger('WARN') });
