import type { QueryClient } from '@tanstack/react-query';

import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { forgetSignedIn } from '../session-keeper';
import { endSession } from './end-session';

/** Signs out from the navbar's button; says whether it worked. */
export async function signOut(queryClient: QueryClient): Promise<boolean> {
  try {
    await endSession();
  } catch (error) {
    toast.error(`Could not sign you out. ${errorMessage(error)}`);
    return false;
  }
  forgetSignedIn(queryClient);
  toast.success('You are signed out.');
  return true;
}
