export * from './dispatcher-workflow';
export * from './playbook-workflow';
export * from './cron-workflow';
