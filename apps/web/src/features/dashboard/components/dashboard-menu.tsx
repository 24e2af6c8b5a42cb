import type { Role } from '@carmarket/shared';
import { Link, useLocation } from 'react-router';

import { UnreadBadge } from '../../messages';
import { menuFor, type MenuEntry } from '../menu';

const OVERVIEW: MenuEntry = { to: '/dashboard', label: 'Overview', description: '' };

/**
 * The entry for the page shown. The path decides; a page's own pages count as it (Messages for
 * one conversation), the Overview is just itself. Where entries share a path (All users, Sellers,
 * Buyers), one whose query the address holds wins; else the one without a query, whatever the
 * address's query (a tab or page of Disputes is still Disputes).
 */
function currentEntry(entries: MenuEntry[], pathname: string, search: string): string | null {
  const params = new URLSearchParams(search);
  const onPath = entries.filter(({ to }) => {
    const [path = ''] = to.split('?');
    return path === pathname || (path !== '/dashboard' && pathname.startsWith(`${path}/`));
  });
  const filtered = onPath.find(({ to }) => {
    const query = to.split('?')[1];
    return (
      query && [...new URLSearchParams(query)].every(([key, value]) => params.get(key) === value)
    );
  });
  return (filtered ?? onPath.find(({ to }) => !to.includes('?')))?.to ?? null;
}

function MenuLink({
  entry,
  current,
  onNavigate,
}: {
  entry: MenuEntry;
  current: boolean;
  onNavigate: () => void;
}) {
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
  const { pathname, search } = useLocation();
  const sections = menuFor(roles);
  const current = currentEntry(
    [OVERVIEW, ...sections.flatMap((section) => section.entries)],
    pathname,
    search,
  );
  return (
    <>
      <div className="px-4 pb-4">
        <p className="font-semibold break-words">{name}</p>
        <p className="text-sm text-muted">{rolesName}</p>
      </div>
      <ul className="menu w-full gap-1 p-0 text-base">
        <MenuLink entry={OVERVIEW} current={current === OVERVIEW.to} onNavigate={onNavigate} />
        {sections.map((section) => (
          <li key={section.title}>
            <h2 className="menu-title">{section.title}</h2>
            <ul>
              {section.entries.map((entry) => (
                <MenuLink
                  key={entry.to}
                  entry={entry}
                  current={current === entry.to}
                  onNavigate={onNavigate}
                />
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </>
  );
}
