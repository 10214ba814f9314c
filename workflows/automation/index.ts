export * from './dispatcher-workflow';
export * from './playbook-workflow';
