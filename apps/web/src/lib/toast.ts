/**
 * The one toast helper. react-toastify and its styles are loaded on the first toast, so they are
 * not part of any page's up-front bundle.
 */
import type * as ToasterModule from './toaster';

export type ToastKind = 'default' | 'info' | 'success' | 'warning' | 'error';

/** A button in a toast, such as Undo; using it closes the toast. */
export interface ToastAction {
  label: string;
  onClick: () => void;
  /** Makes it a link to this address (onClick then moves there within the app). */
  href?: string;
}

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

function show(kind: ToastKind, message: string, action?: ToastAction): void {
  loadToaster()
    .then((module) => module.showToast(kind, message, action))
    .catch((error: unknown) => {
      console.error('Could not show a notification:', message, error);
    });
}

export const toast = {
  show: (message: string, action?: ToastAction) => show('default', message, action),
  info: (message: string, action?: ToastAction) => show('info', message, action),
  success: (message: string, action?: ToastAction) => show('success', message, action),
  warning: (message: string, action?: ToastAction) => show('warning', message, action),
  error: (message: string, action?: ToastAction) => show('error', message, action),
  /** Starts loading the toast code early, e.g. when a form that will toast opens. */
  preload: () => {
    void loadToaster().catch(() => undefined);
  },
};
