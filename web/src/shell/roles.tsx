import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../api/errors';
import { useConsole, type Role } from './context';

export const ROLES: readonly Role[] = ['viewer', 'editor', 'steward', 'admin'];

/** True when `have` is at least `need` in the order viewer < editor < steward < admin. */
export const roleAtLeast = (have: Role, need: Role) => ROLES.indexOf(have) >= ROLES.indexOf(need);

/** The caller as the API sees it (`GET /api/auth/me`): key name, role, whether keys are on. Asked once per key. */
export function useCaller() {
  const { api } = useConsole();
  return useQuery({
    queryKey: ['auth', 'me'],
    queryFn: () => unwrap(api.client.GET('/api/auth/me')),
    staleTime: Infinity,
    retry: false,
  });
}

export interface Can {
  allowed: boolean;
  /** The least role the action needs (null: unknown or open). */
  need: Role | null;
  /** The caller's role (null while unknown: the action stays enabled and the server decides). */
  role: Role | null;
  /** Why it is disabled, in words (empty when allowed). */
  reason: string;
}

/**
 * May the caller do this? `action` is a role or an operation of the manifest ("post /api/clone"), whose least
 * role comes from the server's operation list. Unknown role (not loaded, failed): allowed, the server decides
 * and a 403 names the role.
 */
export function useCan(action: Role | string): Can {
  const { operations } = useConsole();
  const caller = useCaller();
  const need = action.includes(' ') ? (operations.get(action) ?? null) : (action as Role);
  const role = caller.data?.role ?? null;
  const allowed = !need || !role || roleAtLeast(role, need);
  const reason = allowed ? '' : `Needs the ${need} role; your key ${caller.data?.name ?? ''} has the ${role} role.`;
  return { allowed, need, role, reason };
}

/** The reason an action is disabled, next to it (give its id to the control's aria-describedby). */
export function RoleNote({ can, id }: { can: Can; id: string }) {
  if (can.allowed) return null;
  return (
    <span id={id} className="marker role-note" data-testid="role-note">
      {can.reason}
    </span>
  );
}

/** The key's name and role in the top bar, when the server has keys (authentication on). */
export function CallerBadge() {
  const caller = useCaller();
  if (!caller.data || caller.data.authentication === 'off') return null;
  return (
    <output className="badge" data-testid="caller-role">
      Key {caller.data.name}: {caller.data.role}
    </output>
  );
}
