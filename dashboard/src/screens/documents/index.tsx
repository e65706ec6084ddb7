import type { ReactNode } from 'react';
import { Navigate, Route, Routes, useParams } from 'react-router';
import { NotFound, Forbidden } from '../not-found.js';
import { useSession } from '../../session.js';
import { isFamily, type Family } from './families.js';
import { useReadableFamilies } from './use-families.js';
import { DocumentList } from './document-list.js';
import { DocumentDetail } from './document-detail.js';
import { NewNfce } from './new-nfce.js';

// Documents: /documents/<family> lists, /documents/<family>/<id> details, /documents/nfce/new issues.
export default function DocumentsArea() {
  const readable = useReadableFamilies();
  return (
    <Routes>
      <Route index element={readable[0] ? <Navigate to={readable[0]} replace /> : <Forbidden />} />
      <Route path="nfce/new" element={<Gate family="nfce" write><NewNfce /></Gate>} />
      <Route path=":family" element={<FamilyRoute>{(family) => <DocumentList family={family} />}</FamilyRoute>} />
      <Route path=":family/:id" element={<FamilyRoute>{(family, id) => <DocumentDetail key={id} family={family} id={id!} />}</FamilyRoute>} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

function FamilyRoute({ children }: { children: (family: Family, id?: string) => ReactNode }) {
  const { family, id } = useParams();
  if (!isFamily(family)) return <NotFound />;
  return <Gate family={family}>{children(family, id)}</Gate>;
}

function Gate({ family, write, children }: { family: Family; write?: boolean; children: ReactNode }) {
  const session = useSession();
  return session.can(`${family}:${write ? 'write' : 'read'}`) ? <>{children}</> : <Forbidden />;
}
