import type { TwoFactorSetup, TwoFactorStatus } from '@portfolio/contract/types';
import { type FormEvent, useCallback, useEffect, useState } from 'react';

import { ApiError } from '../../api/client';
import { twoFactorApi, type TwoFactorProof } from '../../api/two-factor';
import { FormAlert, PasswordField, TextField } from '../../components/field';
import { Modal } from '../../components/modal';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { useSession } from '../../hooks/use-session';
import { useToast } from '../../hooks/use-toast';
import { useI18n } from '../../i18n/i18n';
import { answerMessage, type Message } from '../../i18n/message';
import { formatDate } from '../../lib/format';

type View =
  | { kind: 'loading' }
  | { kind: 'failed' }
  | { kind: 'status'; status: TwoFactorStatus }
  | { kind: 'setup'; setup: TwoFactorSetup }
  | { kind: 'codes'; codes: string[]; justEnabled: boolean };

/** The base32 key in groups of four, easier to type into an app. */
const grouped = (key: string) => key.replace(/(.{4})(?=.)/g, '$1 ');

/** A field's problem from the API (wrong, used or expired code; wrong password), or null for other failures. */
function fieldProblem(error: unknown, field: string): Message | null {
  return error instanceof ApiError && error.status === 400 ? (error.fieldErrors[field] ?? null) : null;
}

/** 'Two-factor sign-in': set it up with a QR code, see the recovery codes once, renew them, turn it off. */
export function TwoFactorModal({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const handleError = useErrorHandler();
  const [view, setView] = useState<View>({ kind: 'loading' });

  const load = useCallback(async () => {
    setView({ kind: 'loading' });
    try {
      setView({ kind: 'status', status: await twoFactorApi.status() });
    } catch (error) {
      setView({ kind: 'failed' });
      handleError(error, { title: t('twoFactor.loadFailed') });
    }
  }, [handleError, t]);

  useEffect(() => {
    void load();
    // Loads once when opened; `load` changes with the language only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  let body;
  if (view.kind === 'loading') {
    body = (
      <p role="status" className="ao-loading">
        {t('common.loading')}
      </p>
    );
  } else if (view.kind === 'failed') {
    body = (
      <button type="button" className="ao-button ao-button-secondary" onClick={() => void load()}>
        {t('common.retry')}
      </button>
    );
  } else if (view.kind === 'setup') {
    body = (
      <SetupStep
        setup={view.setup}
        onCancel={() => void load()}
        onEnabled={(codes) => setView({ kind: 'codes', codes, justEnabled: true })}
      />
    );
  } else if (view.kind === 'codes') {
    body = <RecoveryCodes codes={view.codes} justEnabled={view.justEnabled} onDone={() => void load()} />;
  } else if (view.status.enabled) {
    body = (
      <EnabledPanel
        status={view.status}
        onDisabled={() => void load()}
        onNewCodes={(codes) => setView({ kind: 'codes', codes, justEnabled: false })}
      />
    );
  } else {
    body = <DisabledPanel onSetup={(setup) => setView({ kind: 'setup', setup })} />;
  }

  return (
    <Modal title={t('twoFactor.title')} onClose={onClose} size="medium">
      <div className="ao-two-factor">{body}</div>
    </Modal>
  );
}

function DisabledPanel({ onSetup }: { onSetup: (setup: TwoFactorSetup) => void }) {
  const { t } = useI18n();
  const handleError = useErrorHandler();
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    try {
      onSetup(await twoFactorApi.startSetup());
    } catch (error) {
      handleError(error, { title: t('twoFactor.failed') });
      setBusy(false);
    }
  };
  return (
    <>
      <p className="ao-intro">{t('twoFactor.intro')}</p>
      <p>
        <strong>{t('twoFactor.off')}</strong>
      </p>
      <button type="button" className="ao-button ao-button-primary" disabled={busy} onClick={() => void start()}>
        {busy ? t('twoFactor.starting') : t('twoFactor.start')}
      </button>
    </>
  );
}

function SetupStep({ setup, onCancel, onEnabled }: { setup: TwoFactorSetup; onCancel: () => void; onEnabled: (codes: string[]) => void }) {
  const { t } = useI18n();
  const handleError = useErrorHandler();
  const [code, setCode] = useState('');
  const [error, setError] = useState<Message | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!code.trim()) {
      setError('validation.codeRequired');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      onEnabled((await twoFactorApi.confirm(code.trim())).recoveryCodes);
    } catch (failure) {
      const problem = fieldProblem(failure, 'code');
      if (problem) setError(problem);
      else handleError(failure, { title: t('twoFactor.failed') });
      setBusy(false);
    }
  };

  return (
    <form className="ao-form" noValidate onSubmit={(event) => void submit(event)}>
      <p>{t('twoFactor.scan')}</p>
      <img
        className="ao-qr"
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`}
        alt={t('twoFactor.qrAlt')}
        width={200}
        height={200}
      />
      <p className="ao-hint">{t('twoFactor.manual')}</p>
      <p className="ao-setup-key">
        <span className="ao-sr-only">{t('twoFactor.manualKey')}: </span>
        <code dir="ltr" data-testid="setup-key">
          {grouped(setup.secret)}
        </code>
      </p>
      <p>{t('twoFactor.enterCode')}</p>
      <TextField
        label={t('twoFactor.code')}
        autoComplete="one-time-code"
        inputMode="numeric"
        dir="ltr"
        value={code}
        onChange={(value) => {
          setCode(value);
          setError(undefined);
        }}
        error={error}
      />
      <div className="ao-form-footer">
        <button type="button" className="ao-button ao-button-secondary" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="ao-button ao-button-primary" disabled={busy}>
          {busy ? t('twoFactor.confirming') : t('twoFactor.confirm')}
        </button>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes, justEnabled, onDone }: { codes: string[]; justEnabled: boolean; onDone: () => void }) {
  const { t } = useI18n();
  const { toast } = useToast();
  const { user } = useSession();
  const text = `${t('twoFactor.fileTitle', { user: user?.username ?? '' })}\n\n${codes.join('\n')}\n`;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      toast({ title: t('twoFactor.copied') });
    } catch {
      toast({ variant: 'destructive', title: t('twoFactor.copyFailed') });
    }
  };
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    link.download = 'recovery-codes.txt';
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  };

  return (
    <div className="ao-form">
      {justEnabled && <FormAlert tone="success">{t('twoFactor.enabled')}</FormAlert>}
      <h3 className="ao-subheading">{t('twoFactor.codesTitle')}</h3>
      <p className="ao-intro">{t('twoFactor.codesIntro')}</p>
      <ol className="ao-recovery-codes" aria-label={t('twoFactor.codesList')} dir="ltr">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="ao-form-footer">
        <button type="button" className="ao-button ao-button-secondary" onClick={() => void copy()}>
          {t('twoFactor.copy')}
        </button>
        <button type="button" className="ao-button ao-button-secondary" onClick={download}>
          {t('twoFactor.download')}
        </button>
        <button type="button" className="ao-button ao-button-primary" onClick={onDone}>
          {t('twoFactor.done')}
        </button>
      </div>
    </div>
  );
}

function EnabledPanel({
  status,
  onDisabled,
  onNewCodes,
}: {
  status: TwoFactorStatus;
  onDisabled: () => void;
  onNewCodes: (codes: string[]) => void;
}) {
  const { t, msg, lang } = useI18n();
  const { toast } = useToast();
  const handleError = useErrorHandler();
  const [usePassword, setUsePassword] = useState(false);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ code?: Message; password?: Message }>({});
  const [busy, setBusy] = useState<'disable' | 'regenerate' | null>(null);

  const run = async (action: 'disable' | 'regenerate') => {
    const proof: TwoFactorProof = usePassword ? { password } : { code: code.trim() };
    if (usePassword ? !password : !code.trim()) {
      setErrors(usePassword ? { password: 'validation.passwordRequired' } : { code: 'validation.codeRequired' });
      return;
    }
    setErrors({});
    setBusy(action);
    try {
      if (action === 'disable') {
        const answer = await twoFactorApi.disable(proof);
        toast({ title: msg(answerMessage(answer)) });
        onDisabled();
      } else {
        const answer = await twoFactorApi.regenerate(proof);
        toast({ title: t('twoFactor.regenerated') });
        onNewCodes(answer.recoveryCodes);
      }
    } catch (error) {
      const codeProblem = fieldProblem(error, 'code');
      const passwordProblem = fieldProblem(error, 'password');
      if (codeProblem || passwordProblem) setErrors({ code: codeProblem ?? undefined, password: passwordProblem ?? undefined });
      else handleError(error, { title: t('twoFactor.failed') });
      setBusy(null);
    }
  };

  return (
    <form
      className="ao-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void run('regenerate');
      }}
    >
      <p className="ao-intro">{t('twoFactor.intro')}</p>
      <p>
        <strong>{t('twoFactor.on', { date: status.enabledAt ? formatDate(status.enabledAt, lang) : '' })}</strong>
      </p>
      <p>{t('twoFactor.codesLeft', { count: status.recoveryCodesLeft })}</p>
      <p className="ao-hint">{t('twoFactor.proofIntro')}</p>
      {usePassword ? (
        <PasswordField
          label={t('login.password')}
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          error={errors.password}
        />
      ) : (
        <TextField label={t('twoFactor.code')} autoComplete="one-time-code" dir="ltr" value={code} onChange={setCode} error={errors.code} />
      )}
      <button
        type="button"
        className="ao-button ao-button-link"
        onClick={() => {
          setUsePassword(!usePassword);
          setErrors({});
        }}
      >
        {usePassword ? t('twoFactor.useCode') : t('twoFactor.usePassword')}
      </button>
      <div className="ao-form-footer">
        <button type="submit" className="ao-button ao-button-secondary" disabled={busy !== null}>
          {busy === 'regenerate' ? t('twoFactor.working') : t('twoFactor.regenerate')}
        </button>
        <button type="button" className="ao-button ao-button-danger" disabled={busy !== null} onClick={() => void run('disable')}>
          {busy === 'disable' ? t('twoFactor.working') : t('twoFactor.disable')}
        </button>
      </div>
    </form>
  );
}
