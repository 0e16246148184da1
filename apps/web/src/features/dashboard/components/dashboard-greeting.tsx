import { formatToday, greetingFor } from '../../../lib/format';

/** 'Good Afternoon! Alice' by the hour of `now`, with today's date under it. */
export function DashboardGreeting({ name, now = new Date() }: { name: string; now?: Date }) {
  return (
    <div>
      <h1 className="text-xl font-semibold text-slate-900 md:text-2xl">
        {greetingFor(now.getHours())}! {name}
      </h1>
      <p className="mt-1 text-sm text-slate-600">{formatToday(now)}</p>
    </div>
  );
}
