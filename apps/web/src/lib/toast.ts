/**
 * The one toast helper. react-toastify and its styles are loaded on the first toast, so they are
 * not part of any page's up-front bundle.
 */
import type * as ToasterModule from './toaster';

export type ToastKind = 'default' | 'info' | 'success' | 'warning' | 'error';

type Toaster = typeof ToasterModule;

let toaster: Promise<Toaster> | undefined;

function loadToaster(): Promise<Toaster> {
  toaster ??= import('./toaster').catch((error: unknown) => {
    // Let a later toast try again, e.g. after the connection comes back.
    toaster = undefined;
    throw error;
  });
  return toaster;
}

function show(kind: ToastKind, message: string): void {
  loadToaster()
    .then((module) => module.showToast(kind, message))
    .catch((error: unknown) => {
      console.error('Could not show a notification:', message, error);
    });
}

export const toast = {
  show: (message: string) => show('default', message),
  info: (message: string) => show('info', message),
  success: (message: string) => show('success', message),
  warning: (message: string) => show('warning', message),
  error: (message: string) => show('error', message),
  /** Starts loading the toast code early, e.g. when a form that will toast opens. */
  preload: () => {
    void loadToaster().catch(() => undefined);
  },
};
