import { DEFAULT_CATEGORY_ICON, type AdminCategory } from '@carmarket/shared';
import { useEffect, useId, useRef, useState } from 'react';

import { ConfirmDialog, Dialog } from '../../../components/ui/dialog';
import { EmptyState, PageState } from '../../../components/ui/page-state';
import { errorMessage } from '../../../lib/api-client';
import { usePage } from '../../../lib/page';
import { toast } from '../../../lib/toast';
import {
  useAddCategory,
  useAdminCategories,
  useDeleteCategory,
  useUpdateCategory,
} from '../api/categories';
import { CategoryForm } from '../components/category-form';

const carsIn = (n: number) => (n === 0 ? 'No cars' : n === 1 ? '1 car' : `${n} cars`);

/** Renames a category or gives it another icon. */
function EditCategoryDialog({
  category,
  onClose,
}: {
  category: AdminCategory | null;
  onClose: () => void;
}) {
  const update = useUpdateCategory();
  return (
    <Dialog
      open={!!category}
      onClose={onClose}
      title={category ? `Edit ${category.name}` : ''}
      wide
    >
      {category && (
        <CategoryForm
          initial={{ name: category.name, icon: category.iconName }}
          submitLabel="Save changes"
          busyLabel="Saving…"
          onSave={async ({ name, icon }) => {
            const changes = {
              ...(name !== category.name ? { name } : {}),
              ...(icon && icon !== category.iconName ? { icon } : {}),
            };
            if (Object.keys(changes).length === 0) {
              toast.info('Nothing changed');
            } else {
              await update.mutateAsync({ id: category._id, ...changes });
              toast.success('Category saved');
            }
            onClose();
          }}
          actions={
            <button type="button" className="button button-outline" onClick={onClose}>
              Cancel
            </button>
          }
        />
      )}
    </Dialog>
  );
}

/** Asks before deleting; a category with cars asks which category takes them. */
function DeleteCategoryDialog({
  category,
  others,
  onClose,
}: {
  category: AdminCategory | null;
  others: AdminCategory[];
  onClose: () => void;
}) {
  const remove = useDeleteCategory();
  const [moveTo, setMoveTo] = useState('');
  const [missing, setMissing] = useState(false);
  const selectId = useId();
  const hasCars = !!category && category.cars > 0;

  function close() {
    remove.reset();
    setMoveTo('');
    setMissing(false);
    onClose();
  }

  function handleConfirm() {
    if (!category) return;
    if (hasCars && !moveTo) {
      setMissing(true);
      document.getElementById(selectId)?.focus();
      return;
    }
    const target = others.find((other) => other._id === moveTo);
    remove.mutate(
      { id: category._id, moveTo: hasCars ? moveTo : undefined },
      {
        onSuccess: ({ carsMoved }) => {
          toast.success(
            carsMoved > 0 && target
              ? `Category deleted; ${carsIn(carsMoved).toLowerCase()} moved to ${target.name}`
              : 'Category deleted',
          );
          close();
        },
      },
    );
  }

  return (
    <ConfirmDialog
      open={!!category}
      onClose={close}
      onConfirm={handleConfirm}
      title={category ? `Delete ${category.name}?` : ''}
      description={
        category &&
        (hasCars
          ? `${category.name} has ${carsIn(category.cars).toLowerCase()} (on sale, sold, withdrawn or removed). They all move to the category you choose; searches people saved within it follow them.`
          : `${category.name} has no cars. It leaves the home page, the car form and search at once.`)
      }
      confirmLabel="Delete category"
      busyLabel="Deleting…"
      busy={remove.isPending}
      danger
      error={remove.isError ? errorMessage(remove.error) : null}
    >
      {hasCars && (
        <div>
          <label htmlFor={selectId} className="field-label">
            Move its cars to
          </label>
          <select
            id={selectId}
            className="select w-full"
            value={moveTo}
            aria-invalid={missing && !moveTo ? true : undefined}
            aria-describedby={missing && !moveTo ? `${selectId}-error` : undefined}
            onChange={(event) => setMoveTo(event.target.value)}
          >
            <option value="" disabled>
              Choose a category
            </option>
            {others.map((other) => (
              <option key={other._id} value={other._id}>
                {other.name}
              </option>
            ))}
          </select>
          {missing && !moveTo && (
            <p id={`${selectId}-error`} className="field-error">
              Choose the category that takes its cars
            </p>
          )}
        </div>
      )}
    </ConfirmDialog>
  );
}

/** One category's row: its icon, name and cars, and Up, Down, Edit and Delete. */
function CategoryRow({
  category,
  index,
  count,
  moving,
  onMove,
  onEdit,
  onDelete,
}: {
  category: AdminCategory;
  index: number;
  count: number;
  moving: boolean;
  onMove: (to: number, direction: 'up' | 'down') => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const first = index === 0;
  const last = index === count - 1;
  // The only category, with cars: they would have nowhere to go.
  const stuck = count === 1 && category.cars > 0;
  const moveClass = 'button button-ghost button-sm px-2 aria-disabled:opacity-50';
  return (
    <li
      data-testid="category-row"
      className="flex flex-wrap items-center gap-3 rounded-box border border-base-300 p-3"
    >
      <img src={category.icon} alt="" width={48} height={48} className="size-12 shrink-0" />
      {/* At least 10rem for the name: where the row is narrower, the buttons go under it. */}
      <div className="min-w-40 flex-1">
        <p className="font-semibold break-words">{category.name}</p>
        <p className="text-sm text-muted">{carsIn(category.cars)}</p>
      </div>
      <div className="flex flex-wrap gap-1">
        <button
          type="button"
          className={moveClass}
          data-move={`${category._id}-up`}
          // aria-disabled rather than disabled: the button keeps focus when it reaches the top.
          aria-disabled={first || moving || undefined}
          aria-label={`Move ${category.name} up`}
          title={first ? `${category.name} is first already` : undefined}
          onClick={() => !first && !moving && onMove(index - 1, 'up')}
        >
          Up
        </button>
        <button
          type="button"
          className={moveClass}
          data-move={`${category._id}-down`}
          aria-disabled={last || moving || undefined}
          aria-label={`Move ${category.name} down`}
          title={last ? `${category.name} is last already` : undefined}
          onClick={() => !last && !moving && onMove(index + 1, 'down')}
        >
          Down
        </button>
        <button
          type="button"
          className="button button-outline button-sm"
          aria-label={`Edit ${category.name}`}
          onClick={onEdit}
        >
          Edit
        </button>
        <button
          type="button"
          className="button button-ghost button-sm text-error disabled:text-muted"
          aria-label={`Delete ${category.name}`}
          disabled={stuck}
          title={stuck ? 'Its cars need another category: add one first' : undefined}
          onClick={onDelete}
        >
          Delete
        </button>
      </div>
      {stuck && (
        <p className="w-full text-sm text-muted">
          To delete it, add another category first: its cars need somewhere to go.
        </p>
      )}
    </li>
  );
}

/**
 * Categories (`/dashboard/categories`, admin): add, rename, reorder and delete the categories
 * everyone browses by, each with an icon of the set the server ships.
 */
export function CategoriesPage() {
  usePage({ title: 'Categories' });
  const categories = useAdminCategories();
  const add = useAddCategory();
  const update = useUpdateCategory();
  const [editing, setEditing] = useState<AdminCategory | null>(null);
  const [deleting, setDeleting] = useState<AdminCategory | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const listRef = useRef<HTMLOListElement>(null);
  // The button pressed to move a category: focus goes back to it once the list is in its new order.
  const [refocus, setRefocus] = useState<string | null>(null);

  useEffect(() => {
    if (!refocus || update.isPending) return;
    listRef.current?.querySelector<HTMLElement>(`[data-move="${refocus}"]`)?.focus();
    setRefocus(null);
  }, [refocus, update.isPending, categories.data]);

  function handleMove(category: AdminCategory, to: number, direction: 'up' | 'down') {
    setRefocus(`${category._id}-${direction}`);
    update.mutate(
      { id: category._id, position: to },
      {
        onSuccess: () => setAnnouncement(`${category.name} moved to position ${to + 1}.`),
        onError: (error) => toast.error(`Could not move ${category.name}: ${errorMessage(error)}`),
      },
    );
  }

  return (
    <section aria-labelledby="categories-title">
      <p className="section-eyebrow">Administration</p>
      <h1 id="categories-title" className="mt-2 text-3xl font-extrabold tracking-tight">
        Categories
      </h1>
      <p className="mt-3 max-w-2xl leading-7 text-muted">
        The categories people browse by, in the order the home page shows them. Sellers choose one
        for each car. Every change is recorded in the audit log.
      </p>

      <div className="mt-6 grid gap-8 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <section aria-labelledby="category-list-title">
          <h2 id="category-list-title" className="text-xl font-bold">
            In order
          </h2>
          <p role="status" className="sr-only">
            {announcement}
          </p>
          <div className="mt-3">
            <PageState
              query={categories}
              loading="Loading the categories…"
              what="the categories"
              empty={
                <EmptyState
                  title="No categories"
                  description="Add one: sellers cannot list a car until there is a category for it."
                />
              }
            >
              {(data) => (
                <ol ref={listRef} className="grid gap-3">
                  {data.map((category, index) => (
                    <CategoryRow
                      key={category._id}
                      category={category}
                      index={index}
                      count={data.length}
                      moving={update.isPending}
                      onMove={(to, direction) => handleMove(category, to, direction)}
                      onEdit={() => setEditing(category)}
                      onDelete={() => setDeleting(category)}
                    />
                  ))}
                </ol>
              )}
            </PageState>
          </div>
        </section>

        <section aria-labelledby="add-category-title">
          <h2 id="add-category-title" className="text-xl font-bold">
            Add a category
          </h2>
          <p className="mt-1 text-sm text-muted">
            It goes at the end of the list; move it from there.
          </p>
          <div className="mt-3">
            <CategoryForm
              initial={{ name: '', icon: DEFAULT_CATEGORY_ICON }}
              submitLabel="Add category"
              busyLabel="Adding…"
              onSave={async (values) => {
                await add.mutateAsync(values);
                toast.success(`${values.name} added`);
              }}
            />
          </div>
        </section>
      </div>

      <EditCategoryDialog category={editing} onClose={() => setEditing(null)} />
      <DeleteCategoryDialog
        category={deleting}
        others={(categories.data ?? []).filter((other) => other._id !== deleting?._id)}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
