import { initialsOf } from './seller-words';

/** The seller's photo, or their initials in a circle; the name beside it says who it is. */
export function SellerAvatar({ name, photo }: { name: string; photo: string | null }) {
  if (photo) {
    return (
      <img
        src={photo}
        alt=""
        width={96}
        height={96}
        className="size-20 shrink-0 rounded-full border border-base-300 object-cover sm:size-24"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className="grid size-20 shrink-0 place-items-center rounded-full bg-primary-soft text-3xl font-bold text-primary sm:size-24"
    >
      {initialsOf(name)}
    </span>
  );
}
