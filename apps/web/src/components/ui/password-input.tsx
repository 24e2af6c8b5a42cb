import { useState, type ComponentProps } from 'react';

/** A password input with a button that shows or hides what was typed. */
export function PasswordInput({ className, ...props }: Omit<ComponentProps<'input'>, 'type'>) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <input
        {...props}
        type={visible ? 'text' : 'password'}
        className={`input w-full pr-20 ${className ?? ''}`}
      />
      <button
        type="button"
        className="password-toggle"
        aria-controls={props.id}
        onClick={() => setVisible((shown) => !shown)}
      >
        {visible ? 'Hide' : 'Show'}
        <span className="sr-only"> password</span>
      </button>
    </div>
  );
}
