import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';

/** Signs out; the code (and the toasts it shows) loads on the first click, not with every page. */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [isPending, setIsPending] = useState(false);

  async function handleSignOut() {
    setIsPending(true);
    try {
      const signedOut = await import('./api/sign-out').then((module) =>
        module.signOut(queryClient),
      );
      if (signedOut) await navigate('/');
    } finally {
      setIsPending(false);
    }
  }

  return { signOut: handleSignOut, isPending };
}
