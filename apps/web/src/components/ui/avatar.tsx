import { useState } from 'react';
import { useT } from '../../lib/i18n';

interface Person {
  name?: string;
  profileImageUrl?: string | null;
  /** Set on people an admin deactivated: they stay on their tasks, marked so. */
  deactivated?: boolean;
}

/** The name a person is shown (and read out) by: "(deactivated)" added when it applies. */
function labelOf(person: Person, fallback: string, deactivated: string): string {
  const name = person.name ?? fallback;
  return person.deactivated ? `${name} (${deactivated})` : name;
}

function initialsOf(name: string | undefined): string {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  return parts
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
}

/** A round photo; the person's initials when there is no photo or it fails to load. */
export function Avatar({
  person,
  size = 36,
  className = '',
}: {
  person: Person;
  size?: number;
  className?: string;
}) {
  const [broken, setBroken] = useState(false);
  const t = useT();
  const style = { width: size, height: size };
  const label = labelOf(person, t('ui.user'), t('common.deactivated').toLowerCase());
  // A deactivated person's picture is faded; the name on hover says why.
  const faded = person.deactivated ? 'opacity-50 grayscale' : '';
  if (person.profileImageUrl && !broken) {
    return (
      <img
        src={person.profileImageUrl}
        alt={person.name === undefined ? '' : label}
        title={label}
        style={style}
        onError={() => setBroken(true)}
        className={`shrink-0 rounded-full border-2 border-white bg-slate-200 object-cover ${faded} ${className}`}
      />
    );
  }
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      style={{ ...style, fontSize: size * 0.38 }}
      className={`inline-flex shrink-0 items-center justify-center rounded-full border-2 border-white bg-slate-600 font-semibold text-white ${faded} ${className}`}
    >
      {initialsOf(person.name)}
    </span>
  );
}

/** Split people into those shown and the count hidden behind "+N". */
export function stackOf<T>(people: readonly T[], max: number): { shown: T[]; hidden: number } {
  const limit = Math.max(0, max);
  return { shown: people.slice(0, limit), hidden: Math.max(0, people.length - limit) };
}

/** Overlapping avatars: the first `max`, then a +N count (3 on cards, 5 on the details page). */
export function AvatarStack({
  people,
  max = 3,
  size = 32,
}: {
  people: readonly Person[];
  max?: number;
  size?: number;
}) {
  const { shown, hidden } = stackOf(people, max);
  const t = useT();
  return (
    <div className="flex items-center">
      {shown.map((person, index) => (
        <Avatar key={index} person={person} size={size} className={index > 0 ? '-ml-2' : ''} />
      ))}
      {hidden > 0 && (
        <span
          className="-ml-2 inline-flex items-center justify-center rounded-full border-2 border-white bg-slate-200 text-xs font-medium text-slate-800"
          style={{ width: size, height: size }}
          aria-label={t('ui.more', { count: hidden })}
        >
          +{hidden}
        </span>
      )}
    </div>
  );
}
