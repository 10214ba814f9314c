export * from './scoring';
export * from './governance-report';
