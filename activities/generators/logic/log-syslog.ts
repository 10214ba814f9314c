import { Piece } from './byte-buffer';
import type { FileContext, LineWriter } from './log-lines';
import { weightTable } from './rng';

/** RFC 5424 syslog lines: `<PRI>1 TIMESTAMP HOST APP PROCID MSGID [meta@32473 region="…" env="prod"] MSG`. */

/** RFC 5424 severities (numeric) with their names, weighted. */
const SEVERITIES = weightTable([
  [[6, 'INFO'] as const, 75],
  [[5, 'NOTICE'] as const, 8],
  [[4, 'WARN'] as const, 9],
  [[3, 'ERROR'] as const, 5],
  [[7, 'DEBUG'] as const, 3],
]);
const SEVERITY_NAMES = [...new Set(SEVERITIES)];
const SEVERITY_SLOT = SEVERITIES.map((s) => SEVERITY_NAMES.indexOf(s));
/** App name, MSGID and facility. */
const SYSLOG_APPS = [
  ['sshd', 'AUTH', 4],
  ['cron', 'CRON', 9],
  ['kernel', 'KERN', 0],
  ['nginx', 'HTTP', 16],
  ['systemd', 'INIT', 3],
] as const;
const SYSLOG_MESSAGES: Record<string, string[]> = {
  sshd: ['Accepted publickey for deploy', 'Failed password for invalid user admin', 'Disconnected from user deploy'],
  cron: ['(root) CMD (run-parts /etc/cron.hourly)', '(app) CMD (/opt/app/bin/rotate)'],
  kernel: ['eth0: link up', 'TCP: request_sock_TCP: Possible SYN flooding on port 443'],
  nginx: ['worker process started', 'upstream timed out while reading response header'],
  systemd: ['Started Daily apt upgrade and clean activities.', 'Reloading.'],
};
const REGIONS = ['eu-west-1', 'us-east-1', 'ap-south-1'];

/** `<PRI>1 ` per app and severity slot (app × severity names + slot). */
const PRIS = SYSLOG_APPS.flatMap(([, , facility]) =>
  SEVERITY_NAMES.map(([severity]) => `<${facility * 8 + severity}>1 `),
);
/** ` MSGID [meta@32473 region="…" env="prod"] MSG\n` per app, region and message. */
const TAILS = SYSLOG_APPS.map(([app, msgid]) =>
  REGIONS.map((region) =>
    SYSLOG_MESSAGES[app].map((m) => new Piece(` ${msgid} [meta@32473 region="${region}" env="prod"] ${m}\n`)),
  ),
);
const MESSAGE_COUNTS = SYSLOG_APPS.map(([app]) => SYSLOG_MESSAGES[app].length);

export function syslogFormat(c: FileContext): LineWriter {
  const { rng: r, clock, out } = c;
  /** `Z HOST APP ` per app. */
  const hostApp = SYSLOG_APPS.map(([app]) => new Piece(`Z ${c.host} ${app} `));
  let day = NaN;
  /** `<PRI>1 2026-01-01T` of the day, indexed as `PRIS`. */
  let heads: Piece[] = [];
  return (keep) => {
    const appIndex = r.below(SYSLOG_APPS.length);
    const severityIndex = r.below(SEVERITIES.length);
    const procId = r.int(100, 65_000);
    const messageIndex = r.below(MESSAGE_COUNTS[appIndex]);
    const region = r.below(REGIONS.length);
    if (clock.day !== day) {
      day = clock.day;
      heads = PRIS.map((pri) => new Piece(`${pri}${clock.isoDay}`));
    }
    if (keep) {
      const [app, msgid, facility] = SYSLOG_APPS[appIndex];
      const [severity, level] = SEVERITIES[severityIndex];
      const f = c.facts;
      f.level = level;
      f.message = SYSLOG_MESSAGES[app][messageIndex];
      f.service = app;
      f.attrs = {
        host: c.host,
        app_name: app,
        procid: String(procId),
        msgid,
        pri: String(facility * 8 + severity),
        region: REGIONS[region],
      };
    }
    out.roomForLine();
    out.put(heads[appIndex * SEVERITY_NAMES.length + SEVERITY_SLOT[severityIndex]]);
    clock.putClockMillis(out);
    out.put(hostApp[appIndex]);
    out.int(procId);
    out.put(TAILS[appIndex][region][messageIndex]);
  };
}
