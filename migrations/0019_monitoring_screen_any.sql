-- A subscription that does not say how to screen its contact's name screens it against people and
-- businesses alike (screen_as ANY, decision 127): a contact named as a person must never be missed by a
-- person entry because nobody said it was a person. PVS did not record whether BUSINESS was chosen or
-- only defaulted, so every BUSINESS subscription becomes ANY, which screens everything BUSINESS did and
-- people too; a partner who wants businesses only says BUSINESS again.
ALTER TABLE monitoring_subscriptions DROP CONSTRAINT monitoring_subscriptions_screen_as_check;
ALTER TABLE monitoring_subscriptions ADD CONSTRAINT monitoring_subscriptions_screen_as_check CHECK (screen_as IN ('ANY', 'BUSINESS', 'PERSON'));
UPDATE monitoring_subscriptions SET screen_as = 'ANY' WHERE screen_as = 'BUSINESS';

-- Each enabled one is screened once against the current list by its own contact-screening job (its
-- subject changed, so it meets the whole list): alerts for the people it missed, and none twice (an
-- alert is unique per contact and entry). The key makes the job one per contact, ever.
INSERT INTO jobs (id, kind, key, payload, status, run_at, max_attempts, created_at, updated_at)
SELECT 'job_' || upper(substr(md5('monitoring.screen-as-any:' || contact_id), 1, 26)),
       'monitoring.screen-contact',
       'monitoring.screen-as-any:' || contact_id,
       jsonb_build_object('contactId', contact_id),
       'QUEUED', now(), 8, now(), now()
  FROM monitoring_subscriptions
 WHERE enabled AND screen_as = 'ANY';
