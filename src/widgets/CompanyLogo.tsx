import type { Company } from '../contract/account.ts';
import './CompanyLogo.css';

/** Logos come in any shape: each gets a box this many times as wide as it is high, and is fitted inside it. */
const LOGO_BOX_RATIO = 4;

/**
 * A sponsoring company's logo in a box of known size, so that the page does not shift when the image arrives
 * (issue 10: CLS); its name when it has none.
 */
export function CompanyLogo({ company, height }: { company: Pick<Company, 'name' | 'image_url'>; height: number }) {
  if (!company.image_url) return <strong className="lc-company-logo__name">{company.name}</strong>;
  return <img className="lc-company-logo" src={company.image_url} alt={company.name} height={height} width={height * LOGO_BOX_RATIO} />;
}
