import { formatToday, greetingFor } from '../../../lib/format';
import { useT } from '../../../lib/i18n';

/** 'Good Afternoon! Alice' by the hour of `now`, with today's date under it. */
export function DashboardGreeting({ name, now = new Date() }: { name: string; now?: Date }) {
  const t = useT();
  return (
    <div>
      <h1 className="text-xl font-semibold text-slate-900 md:text-2xl">
        {t('dashboard.greeting', { greeting: greetingFor(now.getHours()), name })}
      </h1>
      <p className="mt-1 text-sm text-slate-600">{formatToday(now)}</p>
    </div>
  );
}
