import { type ComponentType, isValidElement } from 'react';
import { Navigate, type RouteObject, generatePath, useParams } from 'react-router';
import { type LazyPage, lazyPage } from '../services/lazyPage.ts';
import { AdminGuard } from './AdminGuard.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { ConsoleGuard } from './ConsoleGuard.tsx';
import { EmployerGuard } from './EmployerGuard.tsx';
import { leaveFor } from '../services/navigation.ts';
import { PublicOnly, RequireAuth, RequireMfaStep, RootRedirect } from './guards.tsx';
import { PARTNER_PRODUCTS, type PartnerProduct, partnerUrl } from './partners.ts';
import { RootLayout } from './RootLayout.tsx';

/** What each route tells the shell: its title (SPEC §2) and whether the mobile bottom bar shows. */
export interface RouteHandle {
  title: string;
  hideBottomBar?: boolean;
}

const page = (title: string, load: () => Promise<{ default: ComponentType }>, extra: Partial<RouteHandle> = {}) => ({
  Component: lazyPage(load),
  handle: { title, ...extra } satisfies RouteHandle,
});

/** Sends the browser to a partner site; never renders. */
function PartnerRedirect({ product }: { product: PartnerProduct }) {
  leaveFor(partnerUrl(product));
  return null;
}

/** Redirect that carries route params over, e.g. /users/sign_up/:companySlug? -> /sign-up/:companySlug?. */
function RedirectWithParams({ to }: { to: string }) {
  const params = useParams();
  return <Navigate to={generatePath(to, params)} replace />;
}

/** Legacy unlock links: /{token}/unlock/{id?} and /reset-password/{token}/unlock/{id?}, where id is numeric. */
function LegacyUnlockRedirect() {
  const { unlockToken = '', userId } = useParams();
  if (userId !== undefined && !/^\d+$/.test(userId)) {
    return <Navigate to="/not-found" replace />;
  }
  return <Navigate to={`/unlock/${encodeURIComponent(unlockToken)}`} replace />;
}

const loadAdminArea = () => import('../views/admin/AdminArea.tsx');
/** A screen of the admin area, from the area's one chunk. */
type AdminScreenName = Exclude<keyof Awaited<ReturnType<typeof loadAdminArea>>, 'default'>;
const adminScreen = (name: AdminScreenName) => async () => ({ default: (await loadAdminArea())[name] });

const partnerRoutes: RouteObject[] = Object.keys(PARTNER_PRODUCTS).flatMap((product) => [
  { path: `/products/${product}`, element: <PartnerRedirect product={product as PartnerProduct} /> },
  { path: `/additional-information/${product}`, element: <PartnerRedirect product={product as PartnerProduct} /> },
]);

export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    children: [
      { index: true, element: <RootRedirect /> },

      // Public screens in the sign-in layout.
      {
        Component: AuthLayout,
        children: [
          {
            Component: PublicOnly,
            children: [
              { path: '/sign-in', ...page('Sign In', () => import('../views/SignIn.tsx')) },
              { path: '/sign-in/sso', ...page('Single Sign-On', () => import('../views/SsoReturn.tsx')) },
              { path: '/sign-up/:companySlug?', ...page('Sign Up', () => import('../views/SignUp.tsx')) },
            ],
          },
          { path: '/forgot-password', ...page('Forgot Password', () => import('../views/ForgotPassword.tsx')) },
          { path: '/reset-password/:resetToken', ...page('Reset Password', () => import('../views/ResetPassword.tsx')) },
          { path: '/unlock/:unlockToken', ...page('Unlock Account', () => import('../views/Unlock.tsx')) },
          // Signed in or out: the link may be opened in any browser (issue 9 point 9).
          {
            path: '/confirm-email/:confirmationToken',
            ...page('Confirm Email', () => import('../views/ConfirmEmail.tsx')),
          },
          {
            Component: RequireMfaStep,
            children: [
              { path: '/mfa-enrollment', ...page('MFA Enrollment', () => import('../views/MfaEnrollment.tsx')) },
            ],
          },
        ],
      },

      // Signed-in screens in the app layout. The frame is its own chunk (the sign-in route never loads it) and stands
      // outside the guard, so that it paints its skeleton while the session is resolved (issue 10).
      {
        Component: lazyPage(() => import('./AppLayout.tsx')),
        children: [
          {
            Component: RequireAuth,
            children: [
              { path: '/dashboard', ...page('Dashboard', () => import('../views/Dashboard.tsx')) },
              { path: '/requests', ...page('Requests', () => import('../views/Requests.tsx')) },
              {
                path: '/requests/:requestId',
                ...page('Request Details', () => import('../views/Request.tsx'), { hideBottomBar: true }),
              },
              {
                path: '/requests/category/:categoryId',
                ...page('Request Category', () => import('../views/RequestCategory.tsx')),
              },
              { path: '/account', ...page('Account Settings', () => import('../views/Account.tsx')) },
              {
                path: '/benefits-and-offers',
                ...page('Benefits & Offers', () => import('../views/offerings/OfferingsLanding.tsx')),
              },
              {
                path: '/benefits-and-offers/all',
                ...page('All Benefits & Offers', () => import('../views/offerings/OfferingsFull.tsx')),
              },
            ],
          },
          // Signed in or out: a completion e-mail's rating link carries its own token (issue 28).
          { path: '/requests/:requestId/rate', ...page('Rate Your Request', () => import('../views/rating/RatePage.tsx')) },
          // Signed in or out: the frame's navigation is the way on (a signed-out visitor's leads to sign-in).
          { path: '*', ...page('Page Not Found', () => import('../views/NotFound.tsx')) },
        ],
      },

      // Signed-in screens with a frame of their own.
      {
        Component: RequireAuth,
        children: [
          {
            path: '/welcome',
            children: [
              { index: true, element: <Navigate to="/welcome/about-us" replace /> },
              { path: 'about-us', ...page('About Us', () => import('../views/onboarding/AboutUs.tsx')) },
              { path: 'about-you', ...page('About You', () => import('../views/onboarding/AboutYou.tsx')) },
              { path: 'contact-info', ...page('Contact Info', () => import('../views/onboarding/ContactInfo.tsx')) },
            ],
          },
          { path: '/attachments/:fileKey', ...page('Attachment', () => import('../views/Attachment.tsx')) },
          // The employer admin's report (issue 29 part 3): its own frame and chunk; Chart.js loads from it only.
          { path: '/employer/report', Component: EmployerGuard, children: [{ index: true, ...page('Value Report', () => import('../views/employer/EmployerReport.tsx')) }] },
          // The concierge console: staff only; its code is one lazy chunk that employees never load.
          {
            path: '/console',
            Component: ConsoleGuard,
            children: [
              {
                ...page('Concierge Console', () => import('../views/console/ConsoleLayout.tsx')),
                // The console layout reads the address itself (its queues stay put while requests change).
                children: [
                  { index: true, element: null, handle: { title: 'Concierge Console' } satisfies RouteHandle },
                  { path: 'requests/:requestId', element: null, handle: { title: 'Console Request' } satisfies RouteHandle },
                ],
              },
              // Reports (issue 28): staff, a lazy chunk of its own; its charts' library is a further chunk of that screen.
              { path: 'reports', ...page('Reports', () => import('../views/console/reports/ReportsView.tsx')) },
              // The admin area: admins only, and one lazy chunk of its own (its frame and screens are one module).
              {
                path: 'admin',
                Component: AdminGuard,
                children: [
                  {
                    ...page('Administration', loadAdminArea),
                    children: [
                      { index: true, element: <Navigate to="/console/admin/companies" replace /> },
                      { path: 'companies', ...page('Companies', adminScreen('CompaniesPage')) },
                      { path: 'companies/:companyId/sso', ...page('Single Sign-On', adminScreen('CompanySsoPage')) },
                      { path: 'staff', ...page('Staff', adminScreen('StaffPage')) },
                      { path: 'audit', ...page('Audit Log', adminScreen('AuditPage')) },
                      { path: 'employer-reports', ...page('Employer Reports', adminScreen('EmployerReportsPage')) },
                      { path: 'offerings', ...page('Offerings', adminScreen('OfferingsPage')) },
                      { path: 'offering-categories', ...page('Offering Categories', adminScreen('OfferingCategoriesPage')) },
                      { path: 'surveys', ...page('Surveys', adminScreen('SurveysPage')) },
                      { path: 'surveys/:templateId', ...page('Survey Template', adminScreen('SurveyTemplatePage')) },
                      { path: 'scim', ...page('SCIM Provisioning', adminScreen('ScimTokensPage')) },
                      { path: 'assignment', ...page('Assignment', adminScreen('AssignmentPage')) },
                      { path: 'saved-replies', ...page('Saved Replies', adminScreen('SavedRepliesPage')) },
                      { path: 'service-targets', ...page('Service Targets', adminScreen('ServiceTargetsPage')) },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },

      // SPEC §2 redirects and legacy paths.
      { path: '/life_concierge_requests', element: <Navigate to="/requests" replace /> },
      { path: '/life_concierge_requests/new', element: <Navigate to="/dashboard" replace /> },
      { path: '/requests/new', element: <Navigate to="/dashboard" replace /> },
      { path: '/users/sign_up/:companySlug?', element: <RedirectWithParams to="/sign-up/:companySlug?" /> },
      { path: '/users/sign_in', element: <Navigate to="/sign-in" replace /> },
      { path: '/:unlockToken/unlock/:userId?', element: <LegacyUnlockRedirect /> },
      { path: '/reset-password/:unlockToken/unlock/:userId?', element: <LegacyUnlockRedirect /> },
      ...partnerRoutes,

      // The widget gallery exists in non-production builds only (the e2e build uses mode "e2e").
      ...(import.meta.env.MODE === 'production'
        ? []
        : [{ path: '/dev/widgets', ...page('Widget Gallery', () => import('../views/dev/WidgetGallery.tsx')) }]),

    ],
  },
];

/**
 * The lazy components of a matched page (`matches`, outermost first), its layouts included, down to the first of
 * `stopAt`: by default the staff guard, as employees never load the console's code. What the app fetches at start
 * (router.tsx) and what a prerendered page announces (prerender.tsx).
 */
export function lazyPagesOf(
  matches: ReadonlyArray<{ route: Pick<RouteObject, 'Component' | 'element'> }>,
  stopAt: ComponentType[] = [ConsoleGuard],
): LazyPage[] {
  const pages: LazyPage[] = [];
  for (const { route } of matches) {
    // A data router's matches hold each route's Component as the element it made of it.
    const component: unknown = route.Component ?? (isValidElement(route.element) ? route.element.type : null);
    if (!component || typeof component === 'string') continue;
    if (stopAt.includes(component as ComponentType)) break;
    if ((component as Partial<LazyPage>).preload) pages.push(component as LazyPage);
  }
  return pages;
}
