import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

import { Field } from './field';

/** A choice: its value, or its value and the words shown for it. */
export type SelectOption = string | { value: string; label: string };

/**
 * A labelled select bound to a form field. Its first option either asks for a choice (`choose`,
 * which cannot be picked back once another is) or, without `choose`, means "not given".
 */
export function SelectField({
  label,
  hint,
  error,
  field,
  options,
  choose,
  disabled,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  /**
   * Registers the field (`() => register('make')`): called as the select renders, so fields
   * register in the order they show and the first one with an error takes focus.
   */
  field: () => UseFormRegisterReturn;
  options: readonly SelectOption[];
  choose?: string;
  disabled?: boolean;
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => (
        <select {...control} {...field()} disabled={disabled} className="select w-full">
          {choose ? (
            <option value="" disabled>
              {choose}
            </option>
          ) : (
            <option value="">Not given</option>
          )}
          {options.map((option) => {
            const { value, label: words } =
              typeof option === 'string' ? { value: option, label: option } : option;
            return (
              <option key={value} value={value}>
                {words}
              </option>
            );
          })}
        </select>
      )}
    </Field>
  );
}
