import { defineConfig } from 'drizzle-kit';

/** `npm run db:generate` diffs store/schema against the committed migrations and writes the next one. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './store/schema.ts',
  out: './store/migrations',
});
