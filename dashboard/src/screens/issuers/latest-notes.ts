import { useQuery } from '@tanstack/react-query';
import { api, orThrow } from '../../api/client.js';
import { useSession } from '../../session.js';

/** Newest first: the first row of each list is the issuer's latest note of that model. */
const one = (issuer_id: string) => ({ params: { query: { issuer_id, limit: 1 } } });

/** The series and number of the issuer's latest NFC-e, NF-e and DPS, each only when the role reads that model. */
export function useLatestNotes(issuerId: string) {
  const session = useSession();
  return useQuery({
    queryKey: ['issuers', 'latest-notes', issuerId],
    queryFn: async () => {
      const [nfce, nfe, nfse] = await Promise.all([
        session.can('nfce:read') ? orThrow(api.GET('/v1/nfce', one(issuerId))) : null,
        session.can('nfe:read') ? orThrow(api.GET('/v1/nfe', one(issuerId))) : null,
        session.can('nfse:read') ? orThrow(api.GET('/v1/nfse', one(issuerId))) : null,
      ]);
      const n = nfse?.data[0];
      return {
        nfce: nfce?.data[0] ? { id: nfce.data[0].id, serie: nfce.data[0].serie, number: nfce.data[0].number } : null,
        nfe: nfe?.data[0] ? { id: nfe.data[0].id, serie: nfe.data[0].serie, number: nfe.data[0].number } : null,
        nfse: n ? { id: n.id, serie: n.dps.serie, number: n.dps.number } : null,
      };
    },
  });
}
