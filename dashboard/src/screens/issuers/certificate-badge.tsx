import { Badge } from '@mantine/core';
import { t } from '../../i18n/index.js';
import { daysUntil, EXPIRY_WARNING_DAYS, fill, type Issuer } from './model.js';

/**
 * The certificate's status; a valid one ending within 30 days says so, outlined in red. (Yellow and
 * orange badges do not reach 4.5:1 contrast with Mantine's shades.)
 */
export function CertificateBadge({ certificate }: { certificate: Issuer['certificate'] }) {
  const days = certificate.not_after ? daysUntil(certificate.not_after) : null;
  if (certificate.status === 'valid' && days !== null && days <= EXPIRY_WARNING_DAYS)
    return (
      <Badge color="red" variant="outline" data-testid="cert-expiring">
        {days <= 0 ? t.issuers.expiresToday : fill(t.issuers.expiresIn, { days })}
      </Badge>
    );
  const color = certificate.status === 'valid' ? 'brand' : certificate.status === 'missing' ? 'gray' : 'red';
  return (
    <Badge color={color} variant="light">
      {t.issuers.certStatus[certificate.status] ?? certificate.status}
    </Badge>
  );
}

/** Ready to emit, or what is still missing. */
export function ReadinessBadge({ issuer }: { issuer: Pick<Issuer, 'ready' | 'missing'> }) {
  if (issuer.ready)
    return (
      <Badge color="brand" variant="light">
        {t.issuers.ready}
      </Badge>
    );
  const items = issuer.missing.map((m) => t.issuers.missingItem[m] ?? m).join(', ');
  return (
    <Badge color="blue" variant="light" style={{ textTransform: 'none' }}>
      {fill(t.issuers.missing, { items })}
    </Badge>
  );
}
