'use client';
import { Link, useRoute } from '@/lib/client/router';
import { breadcrumbs } from '@/lib/routes';

/** The breadcrumb trail (`<nav aria-label="パンくずリスト">`): names, with a link where a path exists. */
export function Breadcrumbs() {
  const { match, query } = useRoute();
  const trail = match ? breadcrumbs(match, query) : [{ label: 'ホーム', path: '/' }, { label: 'ページが見つかりません' }];
  return (
    <nav aria-label="パンくずリスト" className="flex min-h-[36px] items-center px-[16px] pt-[4px]">
      <ol className="flex flex-wrap items-center text-[1.3rem] text-ink-soft">
        {trail.map((crumb, i) => (
          <li key={`${i}-${crumb.label}`} className="flex items-center">
            {i > 0 && (
              <span aria-hidden="true" className="mx-[8px] text-muted">
                ›
              </span>
            )}
            {crumb.path !== undefined && i < trail.length - 1 ? (
              <Link to={crumb.path} className="text-brand underline-offset-2 hover:underline">
                {crumb.label}
              </Link>
            ) : (
              <span aria-current={i === trail.length - 1 ? 'page' : undefined} className="text-ink">
                {crumb.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
