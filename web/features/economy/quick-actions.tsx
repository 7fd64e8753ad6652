// Quick Actions (spec section 2): Give Coins to User, View All Transactions (a new tab), Export
// Economy Data (economy-data.csv, streamed by the server) and Reset Economy (the spec's confirm).
// Each is real and recorded in the settings history by the server.
import { Download, ExternalLink, Gift, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { ECONOMY_MESSAGES } from '../../../src/shared/economy';
import { downloadFile, errorMessage, fieldErrorsOf } from '../../api/client';
import { guildApi, guildKeys } from '../../api/guild';
import { useGuildMutation } from '../../api/mutations';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Field, MemberPicker } from '../../components/form';
import { Button, buttonClass } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { serverPath } from '../../state/server';
import { toast } from '../../state/toasts';
import { economyKeys, giveCoins, resetEconomy } from './api';
import { useMemberAmountDraft } from '../../components/member-amount-draft';

/** Give Coins to User: a member (searched, or an id pasted) and an amount; negative takes coins away. */
function GiveCoinsDialog({
  guildId,
  currency,
  open,
  onOpenChange,
}: {
  guildId: string;
  currency: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { userId, setUserId, amount, setAmount, reason, setReason, errors, setErrors, close } = useMemberAmountDraft(onOpenChange);
  const give = useGuildMutation({
    request: (input: { userId: string; amount: number; reason: string }) => giveCoins(guildId, input),
    invalidate: [economyKeys.all(guildId), guildKeys.settings(guildId)],
    success: { title: 'Coins Given', description: `The ${currency} are in their balance and in the ledger.` },
    failure: (error) => ({ title: 'Give Coins Failed', description: errorMessage(error) }),
    onSuccess: close,
  });
  const submit = () => {
    const parsed = Number(amount);
    // Spec section 5: a member and a numeric amount, else 'Invalid Input'.
    if (!userId || amount.trim() === '' || !Number.isInteger(parsed) || parsed === 0) {
      setErrors({
        ...(userId ? {} : { userId: 'Pick a member.' }),
        ...(amount.trim() && Number.isInteger(parsed) && parsed !== 0 ? {} : { amount: 'Enter a whole number other than 0.' }),
      });
      toast({ ...ECONOMY_MESSAGES.invalidGive, variant: 'destructive' });
      return;
    }
    setErrors({});
    give.mutate({ userId, amount: parsed, reason }, { onError: (error) => setErrors(fieldErrorsOf(error)) });
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent
        title="Give Coins to User"
        description={`Add ${currency} to a member's balance, or take some away with a negative amount (never below 0).`}
      >
        <form
          className="stack"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Field label="Member" error={errors.userId}>
            {(ids) => <MemberPicker {...ids} guildId={guildId} value={userId} onChange={setUserId} />}
          </Field>
          <Field label="Amount" error={errors.amount}>
            {(ids) => <Input {...ids} type="number" inputMode="numeric" step={1} value={amount} onChange={(event) => setAmount(event.target.value)} />}
          </Field>
          <Field label="Reason (optional)" error={errors.reason} hint="Shown in the ledger and the member's history.">
            {(ids) => <Input {...ids} maxLength={200} value={reason} onChange={(event) => setReason(event.target.value)} />}
          </Field>
          <div className="dialog-actions">
            <Button type="button" variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={give.isPending}>
              {give.isPending ? 'Giving…' : 'Give Coins'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The Quick Actions card. */
export function QuickActions({ guildId, currency, readOnly }: { guildId: string; currency: string; readOnly: boolean }) {
  const [giving, setGiving] = useState(false);
  const [resetting, setResetting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const reset = useGuildMutation({
    request: () => resetEconomy(guildId),
    invalidate: [economyKeys.all(guildId), guildKeys.settings(guildId)],
    success: { title: 'Economy Reset', description: `Every balance is 0 ${currency}; the ledger shows a reset row for each member.` },
    failure: { title: 'Reset Failed' },
    onSuccess: () => setResetting(false),
  });
  const exportData = async () => {
    setExporting(true);
    try {
      await downloadFile(`${guildApi(guildId)}/economy/export`, 'economy-data.csv');
      toast(ECONOMY_MESSAGES.exported);
    } catch (error) {
      toast({ title: 'Export Failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Quick Actions</CardTitle>
        <CardDescription>Every action here is recorded in the settings history.</CardDescription>
      </CardHeader>
      <CardContent className="stack-sm">
        <Button variant="secondary" className="btn-start" onClick={() => setGiving(true)} disabled={readOnly}>
          <Gift size={16} aria-hidden="true" /> Give Coins to User
        </Button>
        <a className={buttonClass('secondary', 'md', 'btn-start')} href={serverPath(guildId, 'transactions')} target="_blank" rel="noopener">
          <ExternalLink size={16} aria-hidden="true" /> View All Transactions
        </a>
        <Button variant="secondary" className="btn-start" onClick={() => void exportData()} disabled={exporting}>
          <Download size={16} aria-hidden="true" /> {exporting ? 'Exporting…' : 'Export Economy Data'}
        </Button>
        <Button variant="danger" className="btn-start" onClick={() => setResetting(true)} disabled={readOnly}>
          <RotateCcw size={16} aria-hidden="true" /> Reset Economy
        </Button>
      </CardContent>
      <GiveCoinsDialog guildId={guildId} currency={currency} open={giving} onOpenChange={setGiving} />
      <ConfirmDialog
        open={resetting}
        onOpenChange={setResetting}
        title="Reset Economy"
        description={ECONOMY_MESSAGES.resetConfirm}
        confirmLabel="Reset Economy"
        onConfirm={() => reset.mutate(undefined)}
        pending={reset.isPending}
      />
    </Card>
  );
}
