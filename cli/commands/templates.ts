import type { Command } from 'commander';
import { defaultTemplateSource, listTemplates, loadTemplate } from '../../config/templates';
import { print } from '../http';

interface TemplateOptions {
  dir?: string;
  json?: boolean;
}

/**
 * `lakeward templates [name]`: the clone templates (built-ins plus `config/templates/*.yaml` or --dir), read
 * from disk so it works without a running server; with a name (or a .yaml path), the whole template.
 */
export function registerTemplatesCommand(program: Command): void {
  program
    .command('templates [name]')
    .description('List clone templates, or show one (by name or .yaml path)')
    .option('--dir <folder>', 'folder of custom templates (default ./config/templates)', 'config/templates')
    .option('--json', 'print JSON instead of text')
    .action((name: string | undefined, opts: TemplateOptions) => {
      const source = defaultTemplateSource(opts.dir);
      if (name) {
        print(opts, loadTemplate(name, source), (t) => JSON.stringify(t, null, 2));
        return;
      }
      print(opts, listTemplates(source), (list) => {
        const width = Math.max(...list.map((t) => t.name.length));
        return list.map((t) => `${t.name.padEnd(width)}  ${t.clone_type.padEnd(7)}  ${t.description}`).join('\n');
      });
    });
}
