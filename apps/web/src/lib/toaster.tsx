import { createRoot } from 'react-dom/client';
import { ToastContainer, toast } from 'react-toastify';

import type { ToastKind } from './toast';

function mountContainer(): void {
  const host = document.createElement('div');
  host.id = 'notifications';
  document.body.append(host);
  // The spec's settings (section 9): top-right, 5 s, pause on hover and on focus loss, close on
  // click, draggable away at 80 % of the width. Below the sticky site header (4rem), so a toast
  // never covers its links, e.g. Login right after "You are signed out".
  createRoot(host).render(
    <ToastContainer
      style={{ top: '4.75rem' }}
      position="top-right"
      autoClose={5000}
      pauseOnHover
      pauseOnFocusLoss
      closeOnClick
      draggable
      draggablePercent={80}
      newestOnTop
      theme="light"
    />,
  );
}

// Toasts sent before the container has mounted are queued by react-toastify and shown once it has.
if (typeof document !== 'undefined') mountContainer();

export function showToast(kind: ToastKind, message: string): void {
  if (kind === 'default') toast(message);
  else toast[kind](message);
}
