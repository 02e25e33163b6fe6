-- People are found by their address in one form, trimmed, lower-cased and in Unicode NFC (the
-- domain's addressKey): before, auth left out NFC, so an address typed with a decomposed "é" was
-- another person from the same address typed composed. Stored addresses move to that form. Where
-- two people were stored under forms of one address, the one already composed keeps it (or, if
-- none was, the oldest takes it) and the others are left as they were: a log-in by any form now
-- finds the one in NFC, and nothing is merged unasked.
UPDATE users u SET email = normalize(u.email, NFC)
  FROM (SELECT DISTINCT ON (normalize(email, NFC)) id FROM users
         WHERE email IS NOT NFC NORMALIZED
         ORDER BY normalize(email, NFC), created_at) oldest
 WHERE u.id = oldest.id
   AND NOT EXISTS (SELECT 1 FROM users o WHERE o.email = normalize(u.email, NFC));

UPDATE invitations SET email = normalize(email, NFC) WHERE email IS NOT NFC NORMALIZED;
