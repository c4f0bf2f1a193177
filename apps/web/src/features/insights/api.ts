import type { InsightPeriod, InsightSort } from '@pulsecheck/shared/insights/rules';
import type {
  ActionInsightsResponse,
  InsightsResponse,
  LoopInsightsResponse,
} from '@pulsecheck/shared/insights/schemas';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiGet } from '@/lib/api-client';

export type InsightFilters = { period: InsightPeriod; category: string | null };

const search = (filters: InsightFilters, sort?: InsightSort) => {
  const params = new URLSearchParams({ period: filters.period });
  if (filters.category) params.set('category', filters.category);
  if (sort) params.set('sort', sort);
  return params.toString();
};
const base = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}/insights`;

export const insightsQuery = (organizationId: string, filters: InsightFilters) =>
  queryOptions({
    queryKey: ['insights', organizationId, filters.period, filters.category],
    queryFn: ({ signal }) => apiGet<InsightsResponse>(`${base(organizationId)}?${search(filters)}`, signal),
    // A new filter keeps the map on screen until its figures arrive.
    placeholderData: keepPreviousData,
  });

export const insightsCsvUrl = (organizationId: string, filters: InsightFilters, sort: InsightSort) =>
  `/api${base(organizationId)}/csv?${search(filters, sort)}`;

/** The Loops section: each loop's latest closed round and the organisation's trend, for the period. */
export const loopInsightsQuery = (organizationId: string, period: InsightPeriod) =>
  queryOptions({
    queryKey: ['insights', organizationId, 'loops', period],
    queryFn: ({ signal }) =>
      apiGet<LoopInsightsResponse>(
        `${base(organizationId)}/loops?${new URLSearchParams({ period })}`,
        signal,
      ),
    placeholderData: keepPreviousData,
  });

/** 'Actions that worked' (decision 0019): per team and for the organisation, for the period. */
export const actionInsightsQuery = (organizationId: string, period: InsightPeriod) =>
  queryOptions({
    queryKey: ['insights', organizationId, 'actions', period],
    queryFn: ({ signal }) =>
      apiGet<ActionInsightsResponse>(
        `${base(organizationId)}/actions?${new URLSearchParams({ period })}`,
        signal,
      ),
    placeholderData: keepPreviousData,
  });
