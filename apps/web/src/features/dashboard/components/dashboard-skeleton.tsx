import { Skeleton } from '../../../components/ui/feedback';
import { useT } from '../../../lib/i18n';

/** The dashboard's shape while its data loads: four cards, two charts, a table. */
export function DashboardSkeleton() {
  const t = useT();
  return (
    <div role="status" aria-label={t('dashboard.loading')} className="flex flex-col gap-5">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {[0, 1, 2, 3].map((index) => (
          <Skeleton key={index} className="h-20" />
        ))}
      </div>
      <div className="grid gap-5 lg:grid-cols-2">
        <Skeleton className="h-[380px]" />
        <Skeleton className="h-[380px]" />
      </div>
      <Skeleton className="h-64" />
    </div>
  );
}
