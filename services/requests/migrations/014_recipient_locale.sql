-- The language of a recipient's e-mails and signing page (en, de, fr, es, pt-BR, it, nl, pl, ja,
-- ar); empty: the signing page follows the browser and the e-mails are in English.
ALTER TABLE recipients ADD COLUMN locale text NOT NULL DEFAULT '';
