import { Route, Routes } from 'react-router';
import { NotFound } from '../not-found.js';
import { CreateIssuer } from './create-issuer.js';
import { IssuerDetail } from './issuer-detail.js';
import { IssuerList } from './issuer-list.js';

// Area "issuers": the list, registering an issuer, and one issuer's page with its
// certificate, CSC, DANFE template, numbering, inutilization and NFS-e settings.
export default function IssuersArea() {
  return (
    <Routes>
      <Route index element={<IssuerList />} />
      <Route path="new" element={<CreateIssuer />} />
      <Route path=":id" element={<IssuerDetail />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
