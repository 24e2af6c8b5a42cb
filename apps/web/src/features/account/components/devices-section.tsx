import type { DeviceSession } from '@carmarket/shared';

import { PageState } from '../../../components/ui/page-state';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format-date';
import { toast } from '../../../lib/toast';
import { useDevices, useSignOutDevice, useSignOutOtherDevices } from '../api/devices';
import { SettingsSection } from './section';

/** "Firefox on Windows", as far as the browser said. */
export function deviceName(device: Pick<DeviceSession, 'browser' | 'os'>): string {
  if (device.browser && device.os) return `${device.browser} on ${device.os}`;
  return device.browser ?? device.os ?? 'Unknown browser';
}

function Device({
  device,
  onSignOut,
  busy,
}: {
  device: DeviceSession;
  onSignOut: (device: DeviceSession) => void;
  busy: boolean;
}) {
  const name = deviceName(device);
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <p className="flex flex-wrap items-center gap-2 font-semibold">
          {name}
          {device.current && <span className="badge badge-sm badge-primary">This device</span>}
        </p>
        <p className="mt-1 text-sm text-muted">
          {device.ipAddress ? `IP ${device.ipAddress} · ` : ''}
          {device.current ? 'In use now' : `Last used ${formatDateTime(device.lastUsedAt)}`} ·
          Signed in {formatDateTime(device.createdAt)}
        </p>
      </div>
      {!device.current && (
        <button
          type="button"
          className="button button-outline button-sm self-start sm:self-center"
          onClick={() => onSignOut(device)}
          disabled={busy}
          aria-label={`Sign out ${name}, last used ${formatDateTime(device.lastUsedAt)}`}
        >
          Sign out
        </button>
      )}
    </li>
  );
}

/** Where the person is signed in; any other device can be signed out, one or all at once. */
export function DevicesSection() {
  const devices = useDevices();
  const signOutOne = useSignOutDevice();
  const signOutOthers = useSignOutOtherDevices();
  const busy = signOutOne.isPending || signOutOthers.isPending;
  const others = devices.data?.filter((device) => !device.current).length ?? 0;

  function handleSignOut(device: DeviceSession) {
    signOutOne.mutate(device.id, {
      onSuccess: () => toast.success(`${deviceName(device)} is signed out.`),
      onError: (failure) => toast.error(errorMessage(failure)),
    });
  }

  function handleSignOutOthers() {
    signOutOthers.mutate(undefined, {
      onSuccess: () => toast.success('Every other device is signed out.'),
      onError: (failure) => toast.error(errorMessage(failure)),
    });
  }

  const body = (
    <PageState
      query={devices}
      loading="Loading your devices…"
      skeleton={<div aria-hidden="true" className="h-24 animate-pulse rounded-box bg-base-200" />}
      what="your devices"
    >
      {(data) => (
        <>
          <ul className="divide-y divide-base-300" aria-label="Signed-in devices">
            {data.map((device) => (
              <Device key={device.id} device={device} onSignOut={handleSignOut} busy={busy} />
            ))}
          </ul>
          {others > 0 && (
            <button
              type="button"
              className="button button-outline mt-4"
              onClick={handleSignOutOthers}
              disabled={busy}
              aria-busy={signOutOthers.isPending || undefined}
            >
              {signOutOthers.isPending ? 'Signing out…' : 'Sign out everywhere else'}
            </button>
          )}
        </>
      )}
    </PageState>
  );

  return (
    <SettingsSection
      id="devices"
      title="Signed-in devices"
      intro="Where your account is signed in now. Signing a device out ends its session at once; don't recognise one? Sign it out and change your password."
    >
      {body}
    </SettingsSection>
  );
}
