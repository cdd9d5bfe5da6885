import type { Generated } from 'kysely';

export interface CasesTable {
  id: Generated<number>;
  company_id: number;
  user_id: number;
  name: string;
  created: Date;
  modified: Date;
}

export interface CaseLinksTable {
  id: Generated<number>;
  case_id: number;
  freight_id: number;
  company_id: number;
  user_id: number;
  created: Date;
  modified: Date;
}

export interface CaseTables {
  cases: CasesTable;
  case_links: CaseLinksTable;
}
