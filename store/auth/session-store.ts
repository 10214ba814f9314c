import { createHash } from 'node:crypto';
import { eq, lt, or } from 'drizzle-orm';
import session from 'express-session';
import type { Db } from '../db';
import { authSessions } from '../schema';
import type { TargetCipher } from '../targets/cipher';

const sidHash = (sid: string) => createHash('sha256').update(sid, 'utf8').digest('hex');

type Done = (err?: unknown) => void;

/** Session data plus the absolute expiry the store enforces (set once, at the first save). */
type Stored = session.SessionData & { absoluteExpiresAt?: string };

/**
 * express-session's store over the drizzle store (Postgres or PGlite): one encrypted row per session. A read
 * past the idle or the absolute expiry deletes the row and finds nothing; expired rows are swept on writes.
 */
export class DrizzleSessionStore extends session.Store {
  constructor(
    private readonly db: Db,
    private readonly cipher: TargetCipher,
    private readonly lifetime: { idleMs: number; absoluteMs: number },
    private readonly now: () => Date = () => new Date(),
  ) {
    super();
  }

  override get(sid: string, done: (err: unknown, s?: session.SessionData | null) => void): void {
    this.read(sid).then((s) => done(null, s), done);
  }

  override set(sid: string, data: session.SessionData, done?: Done): void {
    this.write(sid, data).then(
      () => done?.(),
      (err) => done?.(err),
    );
  }

  override touch(sid: string, data: session.SessionData, done?: Done): void {
    const expiresAt = new Date(this.now().getTime() + this.lifetime.idleMs);
    this.db
      .update(authSessions)
      .set({ expiresAt, updatedAt: this.now() })
      .where(eq(authSessions.sidHash, sidHash(sid)))
      .then(
        () => done?.(),
        (err: unknown) => done?.(err),
      );
  }

  override destroy(sid: string, done?: Done): void {
    this.db
      .delete(authSessions)
      .where(eq(authSessions.sidHash, sidHash(sid)))
      .then(
        () => done?.(),
        (err: unknown) => done?.(err),
      );
  }

  private async read(sid: string): Promise<session.SessionData | null> {
    const [row] = await this.db
      .select()
      .from(authSessions)
      .where(eq(authSessions.sidHash, sidHash(sid)));
    if (!row) return null;
    const now = this.now();
    if (row.expiresAt <= now || row.absoluteExpiresAt <= now) {
      await this.db.delete(authSessions).where(eq(authSessions.sidHash, row.sidHash));
      return null;
    }
    const data = JSON.parse(this.cipher.open(row.envelope).session) as Stored;
    data.absoluteExpiresAt = row.absoluteExpiresAt.toISOString();
    return data;
  }

  private async write(sid: string, data: session.SessionData): Promise<void> {
    const now = this.now();
    const { absoluteExpiresAt: _drop, ...rest } = data as Stored;
    const envelope = this.cipher.seal({ session: JSON.stringify(rest) });
    const expiresAt = new Date(now.getTime() + this.lifetime.idleMs);
    const absoluteExpiresAt = new Date(now.getTime() + this.lifetime.absoluteMs);
    await this.db
      .delete(authSessions)
      .where(or(lt(authSessions.expiresAt, now), lt(authSessions.absoluteExpiresAt, now)));
    await this.db
      .insert(authSessions)
      .values({ sidHash: sidHash(sid), envelope, expiresAt, absoluteExpiresAt })
      .onConflictDoUpdate({ target: authSessions.sidHash, set: { envelope, expiresAt, updatedAt: now } });
  }
}
