import { route, type Route } from '../context';
import { releaseList } from './release-pages';
import { path } from '../html';
import { redirect } from '../respond';
import { issueList, issuePage } from './issue-pages';
import { REPORT_TABS } from './report-layout';
import { eventList, featureRequestList, reportPage } from './report-pages';

/** The reports section (docs/control-room-app.md#the-pages): its tabs are REPORT_TABS (report-layout.ts). */
export const reportRoutes: Route[] = [
  route('GET', '/f/:factoryId/reports', async ({ res }, { factoryId }) => redirect(res, path`/f/${factoryId}/reports/${REPORT_TABS[0].id}`)),
  route('GET', '/f/:factoryId/reports/issues', (context, { factoryId }) => issueList(context, factoryId)),
  route('GET', '/f/:factoryId/reports/issues/:issueId', (context, { factoryId, issueId }) => issuePage(context, factoryId, issueId)),
  route('GET', '/f/:factoryId/reports/events', (context, { factoryId }) => eventList(context, factoryId)),
  route('GET', '/f/:factoryId/reports/releases', (context, { factoryId }) => releaseList(context, factoryId)),
  route('GET', '/f/:factoryId/reports/events/:eventId', (context, { factoryId, eventId }) => reportPage(context, factoryId, 'events', eventId)),
  route('GET', '/f/:factoryId/reports/feature-requests', (context, { factoryId }) => featureRequestList(context, factoryId)),
  route('GET', '/f/:factoryId/reports/feature-requests/:requestId', (context, { factoryId, requestId }) =>
    reportPage(context, factoryId, 'feature-requests', requestId),
  ),
];
