import { Link, NavLink, Outlet, useParams } from 'react-router';
import { Logo } from '../../widgets/Logo.tsx';
import { useFlow, useSession } from '../../machines/appSystem.tsx';
import { adminAuditMachine } from '../../machines/adminAudit.machine.ts';
import { adminCompaniesMachine } from '../../machines/adminCompanies.machine.ts';
import { adminOfferingCategoriesMachine } from '../../machines/adminOfferingCategories.machine.ts';
import { adminOfferingsMachine } from '../../machines/adminOfferings.machine.ts';
import { adminStaffMachine } from '../../machines/adminStaff.machine.ts';
import { adminSurveyCategoriesMachine } from '../../machines/adminSurveyCategories.machine.ts';
import { adminSurveyTemplatesMachine } from '../../machines/adminSurveyTemplates.machine.ts';
import { adminTemplateQuestionsMachine } from '../../machines/adminTemplateQuestions.machine.ts';
import { AdminAuditView } from './AdminAuditView.tsx';
import { AdminCompaniesView } from './AdminCompaniesView.tsx';
import { AdminOfferingCategoriesView } from './AdminOfferingCategoriesView.tsx';
import { AdminOfferingsView } from './AdminOfferingsView.tsx';
import { AdminStaffView } from './AdminStaffView.tsx';
import { AdminSurveysView } from './AdminSurveysView.tsx';
import { AdminTemplateQuestionsView } from './AdminTemplateQuestionsView.tsx';
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
          <NavLink to="/console/admin/audit">Audit log</NavLink>
        </nav>
        <nav className="lc-console__nav" aria-label="Console">
          <span className="lc-console__me">{name}</span>
          <Link to="/console">Concierge console</Link>
          <Link to="/dashboard">Employee app</Link>
        </nav>
      </header>
      <main id="admin-main" className="lc-admin__main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
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
  const input = { templateId: templateId === 'new' ? null : Number(templateId) };
  return <AdminTemplateQuestionsView editor={useFlow(adminTemplateQuestionsMachine, { id: 'adminTemplateQuestions', input })} />;
}

export function OfferingsPage() {
  return <AdminOfferingsView offerings={useFlow(adminOfferingsMachine, { id: 'adminOfferings' })} />;
}

export function OfferingCategoriesPage() {
  return <AdminOfferingCategoriesView categories={useFlow(adminOfferingCategoriesMachine, { id: 'adminOfferingCategories' })} />;
}
