import { SettingsPage } from '../../../features/account/pages/settings-page';

/** `/dashboard/settings`, everyone signed in: My account. */
export default function SettingsRoute() {
  return <SettingsPage />;
}
