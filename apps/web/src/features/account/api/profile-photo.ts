import { useMutation } from '@tanstack/react-query';

import { uploadPhoto } from '../../../lib/upload-photo';
import { useUpdateProfile } from './update-profile';

/**
 * A new profile photo: `POST /api/uploads/profile-photo` (the car photos' safe path: checked by
 * content, re-encoded, metadata stripped), then `update-user` with its address.
 */
export function useSetProfilePhoto() {
  const update = useUpdateProfile();
  return useMutation({
    mutationFn: async (file: File) => {
      const photo = await uploadPhoto(file, () => undefined, undefined, '/uploads/profile-photo');
      await update.mutateAsync({ image: photo.url });
    },
  });
}
