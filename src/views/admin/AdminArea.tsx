import { Link, NavLink, Outlet, useParams } from 'react-router';
import { Logo } from '../../widgets/Logo.tsx';
import { useFlow, useSession } from '../../machines/appSystem.tsx';
import { adminAuditMachine } from '../../machines/adminAudit.machine.ts';
import { adminCompaniesMachine } from '../../machines/adminCompanies.machine.ts';
import { adminCompanySsoMachine } from '../../machines/adminCompanySso.machine.ts';
import { AdminCompanySsoView } from './AdminCompanySsoView.tsx';
import { adminOfferingCategoriesMachine } from '../../machines/adminOfferingCategories.machine.ts';
import { adminOfferingsMachine } from '../../machines/adminOfferings.machine.ts';
import { adminScimTokensMachine } from '../../machines/adminScimTokens.machine.ts';
import { adminStaffMachine } from '../../machines/adminStaff.machine.ts';
import { adminSurveyCategoriesMachine } from '../../machines/adminSurveyCategories.machine.ts';
import { adminSurveyTemplatesMachine } from '../../machines/adminSurveyTemplates.machine.ts';
import { adminTemplateQuestionsMachine } from '../../machines/adminTemplateQuestions.machine.ts';
import { AdminAuditView } from './AdminAuditView.tsx';
import { adminSavedRepliesMachine } from '../../machines/adminSavedReplies.machine.ts';
import { adminStaffCapsMachine, adminTeamDefaultMachine } from '../../machines/adminAssignment.machine.ts';
import { AdminSavedRepliesView } from './AdminSavedRepliesView.tsx';
import { AdminAssignmentView } from './AdminAssignmentView.tsx';
import { adminServiceTargetsMachine } from '../../machines/adminServiceTargets.machine.ts';
import { AdminServiceTargetsView } from './AdminServiceTargetsView.tsx';
import { AdminCompaniesView } from './AdminCompaniesView.tsx';
import { AdminOfferingCategoriesView } from './AdminOfferingCategoriesView.tsx';
import { AdminOfferingsView } from './AdminOfferingsView.tsx';
import { AdminScimTokensView } from './AdminScimTokensView.tsx';
import { AdminStaffView } from './AdminStaffView.tsx';
import { AdminSurveysView } from './AdminSurveysView.tsx';
import { AdminTemplateQuestionsView } from './AdminTemplateQuestionsView.tsx';
import { AdminEmployerReportsView } from './AdminEmployerReportsView.tsx';
import { adminHoursEstimatesMachine, adminReportSettingsMachine } from '../../machines/adminEmployerReports.machine.ts';
import '../console/console.css';
import './admin.css';
import './adminSurveys.css';

/**
 * The console's admin area (issue 13): one lazy chunk, this module, holding its frame and its screens, so that
 * concierges and employees never load it. Each screen's actor lives as long as the screen.
 */
export default function AdminLayout() {
  const name = useSession((snapshot) => snapshot.context.user?.full_name);
  return (
    <div className="lc-console lc-admin">
      <a className="lc-console__skip" href="#admin-main">
        Skip to the content
      </a>
      <header className="lc-console__header">
        <Logo to="/console" />
        <span className="lc-console__title">Administration</span>
        <nav className="lc-admin__nav" aria-label="Administration">
          <NavLink to="/console/admin/companies">Companies</NavLink>
          <NavLink to="/console/admin/staff">Staff</NavLink>
          <NavLink to="/console/admin/offerings">Offerings</NavLink>
          <NavLink to="/console/admin/offering-categories">Offering categories</NavLink>
          <NavLink to="/console/admin/surveys">Surveys</NavLink>
          <NavLink to="/console/admin/scim">SCIM provisioning</NavLink>
          <NavLink to="/console/admin/assignment">Assignment</NavLink>
          <NavLink to="/console/admin/saved-replies">Saved replies</NavLink>
          <NavLink to="/console/admin/service-targets">Service targets</NavLink>
          <NavLink to="/console/admin/employer-reports">Employer reports</NavLink>
          <NavLink to="/console/admin/audit">Audit log</NavLink>
        </nav>
        <nav className="lc-console__nav" aria-label="Console">
          <span className="lc-console__me">{name}</span>
          <Link to="/console">Concierge console</Link>
          <Link to="/console/reports">Reports</Link>
          <Link to="/dashboard">Employee app</Link>
        </nav>
      </header>
      <main id="admin-main" className="lc-admin__main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}

export function ScimTokensPage() {
  return <AdminScimTokensView tokens={useFlow(adminScimTokensMachine, { id: 'adminScimTokens' })} />;
}

export function CompaniesPage() {
  return <AdminCompaniesView companies={useFlow(adminCompaniesMachine, { id: 'adminCompanies' })} />;
}

export function StaffPage() {
  return <AdminStaffView staff={useFlow(adminStaffMachine, { id: 'adminStaff' })} />;
}

export function AuditPage() {
  return <AdminAuditView audit={useFlow(adminAuditMachine, { id: 'adminAudit' })} />;
}

export function SurveysPage() {
  const categories = useFlow(adminSurveyCategoriesMachine, { id: 'adminSurveyCategories' });
  return <AdminSurveysView categories={categories} templates={useFlow(adminSurveyTemplatesMachine, { id: 'adminSurveyTemplates' })} />;
}

/** /console/admin/surveys/new creates a template; once created, its address becomes its own (the actor stays). */
export function SurveyTemplatePage() {
  const { templateId = 'new' } = useParams();
  const input = { itemId: templateId === 'new' ? null : Number(templateId) };
  return <AdminTemplateQuestionsView editor={useFlow(adminTemplateQuestionsMachine, { id: 'adminTemplateQuestions', input })} />;
}

export function OfferingsPage() {
  return <AdminOfferingsView offerings={useFlow(adminOfferingsMachine, { id: 'adminOfferings' })} />;
}

export function OfferingCategoriesPage() {
  return <AdminOfferingCategoriesView categories={useFlow(adminOfferingCategoriesMachine, { id: 'adminOfferingCategories' })} />;
}

/** /console/admin/companies/:companyId/sso: a company's single sign-on (issue 29). */
export function CompanySsoPage() {
  const { companyId } = useParams();
  const input = { itemId: Number(companyId) };
  return <AdminCompanySsoView sso={useFlow(adminCompanySsoMachine, { id: 'adminCompanySso', input })} />;
}

export function SavedRepliesPage() {
  return <AdminSavedRepliesView replies={useFlow(adminSavedRepliesMachine, { id: 'adminSavedReplies' })} />;
}

export function AssignmentPage() {
  const teamDefault = useFlow(adminTeamDefaultMachine, { id: 'adminTeamDefault' });
  return <AdminAssignmentView teamDefault={teamDefault} caps={useFlow(adminStaffCapsMachine, { id: 'adminStaffCaps' })} />;
}

export function ServiceTargetsPage() {
  return <AdminServiceTargetsView targets={useFlow(adminServiceTargetsMachine, { id: 'adminServiceTargets' })} />;
}

/** Employer reports (issue 29 part 3): the companies' report settings and the categories' hours-saved estimates. */
export function EmployerReportsPage() {
  const settings = useFlow(adminReportSettingsMachine, { id: 'adminReportSettings' });
  return <AdminEmployerReportsView settings={settings} estimates={useFlow(adminHoursEstimatesMachine, { id: 'adminHoursEstimates' })} />;
}
