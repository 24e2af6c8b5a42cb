import type { Role } from '@carmarket/shared';
import { Link, useLocation } from 'react-router';

import { UnreadBadge } from '../../messages';
import { menuFor, type MenuEntry } from '../menu';

function isCurrent(to: string, pathname: string, search: string): boolean {
  const [path = '', query = ''] = to.split('?');
  // A page's own pages count as it (Messages for one conversation); the Overview is just itself.
  const within = path !== '/dashboard' && pathname.startsWith(`${path}/`);
  return (path === pathname || within) && query === search.replace(/^\?/, '');
}

function MenuLink({ entry, onNavigate }: { entry: MenuEntry; onNavigate: () => void }) {
  const { pathname, search } = useLocation();
  const current = isCurrent(entry.to, pathname, search);
  return (
    <li>
      <Link
        to={entry.to}
        aria-current={current ? 'page' : undefined}
        className={current ? 'menu-active' : undefined}
        onClick={onNavigate}
      >
        {entry.label}
        {entry.to === '/dashboard/messages' && <UnreadBadge />}
      </Link>
    </li>
  );
}

/** The dashboard's side menu: the home entry, then the sections of the person's role. */
export function DashboardMenu({
  name,
  roles,
  rolesName,
  onNavigate,
}: {
  name: string;
  roles: readonly Role[];
  /** What the account is, in words ("Buyer and Seller"). */
  rolesName: string;
  /** Called when a link is followed (the phone layout closes the menu). */
  onNavigate: () => void;
}) {
  return (
    <>
      <div className="px-4 pb-4">
        <p className="font-semibold break-words">{name}</p>
        <p className="text-sm text-muted">{rolesName}</p>
      </div>
      <ul className="menu w-full gap-1 p-0 text-base">
        <MenuLink
          entry={{ to: '/dashboard', label: 'Overview', description: '' }}
          onNavigate={onNavigate}
        />
        {menuFor(roles).map((section) => (
          <li key={section.title}>
            <h2 className="menu-title">{section.title}</h2>
            <ul>
              {section.entries.map((entry) => (
                <MenuLink key={entry.to} entry={entry} onNavigate={onNavigate} />
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </>
  );
}
