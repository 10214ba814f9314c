import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { textTable } from './workbench';

type Target = ApiOptions & { catalog: string; schema: string; volume?: string; table?: string };

const targetOptions = (cmd: Command) =>
  withApiOptions(
    cmd
      .requiredOption('--catalog <catalog>', 'catalog of the capture volume and table')
      .requiredOption('--schema <schema>', 'schema of the capture volume and table')
      .option('--volume <volume>', 'volume for the files (default demo_unstructured)')
      .option('--table <table>', 'capture table (default demo_capture_catalog)'),
  );

const targetOf = (o: Target) => ({
  catalog: o.catalog,
  schema: o.schema,
  ...(o.volume ? { volume: o.volume } : {}),
  ...(o.table ? { table_name: o.table } : {}),
});

/** `lakeward capture init|frame|recent`: live capture into a volume and a Delta table. */
export function registerCaptureCommands(program: Command): void {
  const capture = program.command('capture').description('live capture of photos and video');

  targetOptions(capture.command('init').description('create the capture volume and table (idempotent)')).action(
    async (o: Target) => {
      const r = await apiClient(o).post<{
        table: string;
        volume: string;
        created_table: boolean;
        created_volume: boolean;
        added_columns: string[];
      }>('/api/capture/init', targetOf(o));
      print(o, r, (x) =>
        [
          `volume ${x.volume}: ${x.created_volume ? 'created' : 'exists'}`,
          `table ${x.table}: ${x.created_table ? 'created' : x.added_columns.length ? `added ${x.added_columns.join(', ')}` : 'up to date'}`,
        ].join('\n'),
      );
    },
  );

  targetOptions(
    capture
      .command('frame <file>')
      .description('store one photo or video (its kind is read from its bytes)')
      .option('--type <photo|video>', 'capture_type', 'photo')
      .option('--session <id>', 'session_id')
      .option('--style <strict|permissive>', 'description_style (default strict)')
      .option('--model <endpoint>', 'serving endpoint for the description (X-Databricks-Model)')
      .option('--budget <n>', 'ai_token_budget (default 50000; 0 disables AI)'),
  ).action(
    async (
      file: string,
      o: Target & { type: string; session?: string; style?: string; model?: string; budget?: string },
    ) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(targetOf(o))) form.set(k, v);
      form.set('capture_type', o.type);
      if (o.session) form.set('session_id', o.session);
      if (o.style) form.set('description_style', o.style);
      if (o.budget !== undefined) form.set('ai_token_budget', o.budget);
      form.set('file', new Blob([readFileSync(file)]), path.basename(file));
      const headers: Record<string, string> = o.model ? { 'X-Databricks-Model': o.model } : {};
      const r = await apiClient(o).request<Record<string, unknown>>('POST', '/api/capture/frame', form, headers);
      print(o, r, (x) =>
        [
          `${String(x.capture_id)} → ${String(x.file_path)} (${String(x.mime_type)}, ${String(x.size_bytes)} bytes)`,
          `caption: ${String(x.caption)}`,
          `tags: ${String(x.tags)}`,
          `source: ${String(x.source)}${x.reason ? ` (${String(x.reason)})` : ''}`,
        ].join('\n'),
      );
    },
  );

  targetOptions(
    capture
      .command('recent')
      .description('recent captures, newest first')
      .option('--session <id>', 'only this session')
      .option('--limit <n>', 'rows (default 50)'),
  ).action(async (o: Target & { session?: string; limit?: string }) => {
    const q = new URLSearchParams(targetOf(o));
    if (o.session) q.set('session_id', o.session);
    if (o.limit) q.set('limit', o.limit);
    const r = await apiClient(o).get<{ captures: Record<string, unknown>[] }>(`/api/capture/recent?${q}`);
    print(o, r, (x) =>
      x.captures.length
        ? textTable(
            ['captured_at', 'type', 'session', 'caption', 'file_path'],
            x.captures.map((c) =>
              [c.captured_at, c.capture_type, c.session_id, c.caption, c.file_path].map((v) => String(v ?? '')),
            ),
          )
        : 'no captures',
    );
  });
}
