import type { Place } from '@carmarket/shared';
import { useId, useState, type KeyboardEvent } from 'react';

import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { usePlaces } from '../api/get-places';

export interface PickedPlace {
  id: number;
  label: string;
}

/**
 * A type-ahead of real places (ARIA combobox with a list box): arrows move, Enter picks, Escape
 * closes. `onText` hears what is typed, for forms that also take a place the list lacks.
 */
export function PlacePicker({
  label,
  text,
  onText,
  onPick,
  placeholder = 'City or town',
  inputId,
  invalid = false,
  describedBy,
  name,
}: {
  label?: string;
  text: string;
  onText: (text: string) => void;
  onPick: (place: PickedPlace) => void;
  placeholder?: string;
  inputId?: string;
  invalid?: boolean;
  describedBy?: string | undefined;
  name?: string;
}) {
  const ownId = useId();
  const id = inputId ?? `${ownId}-input`;
  const listId = `${ownId}-list`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const typed = useDebouncedValue(text, 150);
  const { data: places = [], isFetching } = usePlaces(open ? typed : '');
  const shown = open && text.trim().length >= 2 ? places : [];

  function pick(place: Place) {
    onPick({ id: place.id, label: place.label });
    setOpen(false);
    setActive(-1);
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' && shown.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (index + 1) % shown.length);
    } else if (event.key === 'ArrowUp' && shown.length > 0) {
      event.preventDefault();
      setActive((index) => (index <= 0 ? shown.length - 1 : index - 1));
    } else if (event.key === 'Enter' && open && active >= 0 && shown[active]) {
      event.preventDefault();
      pick(shown[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  }

  return (
    <div className="relative">
      {label && (
        <label htmlFor={id} className="mb-1 block text-sm font-semibold">
          {label}
        </label>
      )}
      <input
        id={id}
        name={name}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={shown.length > 0}
        aria-controls={listId}
        aria-activedescendant={active >= 0 && shown[active] ? `${listId}-${active}` : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        aria-busy={isFetching || undefined}
        placeholder={placeholder}
        className="input w-full"
        value={text}
        onChange={(event) => {
          onText(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={handleKeyDown}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Places"
        className={
          shown.length > 0
            ? 'absolute z-20 mt-1 max-h-72 w-full overflow-auto rounded-box border border-base-300 bg-base-100 p-1 shadow-lg'
            : 'hidden'
        }
      >
        {shown.map((place, index) => (
          <li
            key={place.id}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={`cursor-pointer rounded-lg px-3 py-2 text-sm ${index === active ? 'bg-base-200' : ''}`}
            // Picked on mouse down, before the input's blur closes the list.
            onMouseDown={(event) => {
              event.preventDefault();
              pick(place);
            }}
          >
            {place.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
