import type { AdminUser } from '@carmarket/shared';

import { ConfirmDialog } from '../../../components/ui/dialog';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useDeleteUser } from '../api/users';

/** Asks before closing an account, naming the person and what happens to their cars and bookings. */
export function DeleteUserDialog({
  user,
  onClose,
  onDeleted,
}: {
  user: AdminUser | null;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteUser();

  function handleConfirm() {
    if (!user) return;
    remove.mutate(user._id, {
      onSuccess: () => {
        toast.success('User deleted');
        onClose();
        // After the dialog has closed (and tried to give focus back to the row, now gone).
        requestAnimationFrame(onDeleted);
      },
    });
  }

  return (
    <ConfirmDialog
      open={!!user}
      onClose={() => {
        remove.reset();
        onClose();
      }}
      onConfirm={handleConfirm}
      title={user ? `Delete ${user.name}?` : ''}
      description={
        user && (
          <ul className="list-disc space-y-1 pl-5">
            <li>
              {user.name} ({user.email}) can no longer sign in and is signed out everywhere at once.
            </li>
            {user.roles.includes('Seller') && (
              <li>Their cars on sale are removed, and open bookings of those cars are closed.</li>
            )}
            <li>Their own open bookings are cancelled. The people affected are told by email.</li>
            <li>Paid bookings and payments are kept for the records. This cannot be undone.</li>
          </ul>
        )
      }
      confirmLabel="Delete user"
      busyLabel="Deleting…"
      busy={remove.isPending}
      danger
      error={remove.isError ? errorMessage(remove.error) : null}
    />
  );
}
