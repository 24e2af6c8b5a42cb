import '../../public-pages.css';

import { useLocation } from 'react-router';

import { UnsubscribePage } from '../../features/saved/pages/unsubscribe-page';
import { usePage } from '../../lib/page';

/** `/unsubscribe?token=`: the one-click link in alert mails; no sign-in needed. */
export default function UnsubscribeRoute() {
  usePage({ title: 'Unsubscribe' });
  const token = new URLSearchParams(useLocation().search).get('token');
  return <UnsubscribePage token={token} />;
}
