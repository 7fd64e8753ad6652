// Auto moderation: the master switch (the Bot Settings' 'Auto moderation'), whether staff are
// checked (by default the owner and members with Administrator or Manage Server are not), and a card per rule,
// each with its switch, what it does to a message that breaks it (the message is always deleted;
// the member may be warned or timed out too), the roles and channels it spares, and its own
// numbers or lists.
import { ShieldAlert } from 'lucide-react';
import { describeRule } from '../../../src/shared/automod-descriptions';
import { AUTOMOD_ACTIONS, AUTOMOD_RULE_NAMES, AUTOMOD_STAFF_TEXT, type AutomodRuleName } from '../../../src/shared/moderation';
import type { GuildDirectory } from '../../../src/shared/servers';
import { Field, SwitchRow } from '../../components/form';
import { Badge } from '../../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { Switch } from '../../components/ui/switch';
import { Textarea } from '../../components/ui/textarea';
import { errorUnder, RULE_FIELDS, RULE_NAMES, ruleBodyOf, type RuleDraft, type RuleField } from './draft';
import { AutomodTry } from './automod-try';
import { IdListPicker } from './id-list-picker';
import { DurationSelect } from './duration-select';
import type { SettingsCardProps } from './settings-cards';

const ACTION_OPTIONS = AUTOMOD_ACTIONS.map((action) => ({
  value: action,
  label: action === 'delete' ? 'Delete the message' : action === 'warn' ? 'Delete and warn' : 'Delete and time out',
}));

/** One of a rule's own fields. */
function RuleOwnField({
  name,
  field,
  rule,
  errors,
  readOnly,
  onChange,
}: {
  name: AutomodRuleName;
  field: RuleField;
  rule: RuleDraft;
  errors: Record<string, string>;
  readOnly: boolean;
  onChange: (value: string) => void;
}) {
  const error = errorUnder(errors, `automodRules.${name}.${field.key}`);
  const value = rule.values[field.key] ?? '';
  return (
    <Field label={field.label} hint={field.hint} error={error}>
      {(ids) =>
        field.kind === 'number' ? (
          <Input
            {...ids}
            type="number"
            inputMode="numeric"
            min={field.min}
            max={field.max}
            step={1}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            disabled={readOnly}
          />
        ) : (
          <Textarea {...ids} rows={4} value={value} placeholder={field.placeholder} onChange={(event) => onChange(event.target.value)} disabled={readOnly} />
        )
      }
    </Field>
  );
}

/** One rule's card. */
function RuleCard({
  name,
  rule,
  errors,
  readOnly,
  directory,
  onChange,
}: {
  name: AutomodRuleName;
  rule: RuleDraft;
  errors: Record<string, string>;
  readOnly: boolean;
  directory: GuildDirectory | undefined;
  onChange: (rule: RuleDraft) => void;
}) {
  const title = AUTOMOD_RULE_NAMES[name];
  const at = `automodRules.${name}`;
  const switchId = `automod-${name}`;
  // A rule with a problem opens, even when off, so the message under the field can be seen.
  const hasError = Object.keys(errors).some((key) => key.startsWith(`${at}.`));
  return (
    <Card className="rule-card" role="group" aria-labelledby={`${switchId}-title`}>
      <div className="rule-head">
        <div className="switch-row-text">
          <CardTitle id={`${switchId}-title`}>{title}</CardTitle>
          <CardDescription>{RULE_FIELDS[name].catches}</CardDescription>
          {/* What the rule will do with its settings as they stand, rewritten as they change. */}
          <p className="rule-summary small" id={`${switchId}-summary`}>
            {describeRule(name, ruleBodyOf(name, rule))}
          </p>
        </div>
        <Switch
          id={switchId}
          aria-labelledby={`${switchId}-title`}
          aria-describedby={`${switchId}-summary`}
          checked={rule.enabled}
          onCheckedChange={(enabled) => onChange({ ...rule, enabled })}
          disabled={readOnly}
        />
      </div>
      {rule.enabled || hasError ? (
        <CardContent className="stack">
          <div className="form-grid">
            <Field label="Action" error={errors[`${at}.action`]}>
              {(ids) => (
                <Select
                  id={ids.id}
                  aria-label={`${title}: action`}
                  value={rule.action}
                  onValueChange={(next) => {
                    const action = AUTOMOD_ACTIONS.find((candidate) => candidate === next) ?? rule.action;
                    onChange({ ...rule, action, duration: action === 'timeout' ? (rule.duration ?? '10m') : rule.duration });
                  }}
                  options={ACTION_OPTIONS}
                  disabled={readOnly}
                />
              )}
            </Field>
            {rule.action === 'timeout' ? (
              <Field label="Timeout duration" error={errors[`${at}.duration`]}>
                {(ids) => (
                  <DurationSelect
                    id={ids.id}
                    label={`${title}: timeout duration`}
                    value={rule.duration}
                    onChange={(duration) => onChange({ ...rule, duration })}
                    disabled={readOnly}
                  />
                )}
              </Field>
            ) : null}
            {RULE_FIELDS[name].fields.map((field) => (
              <RuleOwnField
                key={field.key}
                name={name}
                field={field}
                rule={rule}
                errors={errors}
                readOnly={readOnly}
                onChange={(value) => onChange({ ...rule, values: { ...rule.values, [field.key]: value } })}
              />
            ))}
          </div>
          <div className="form-grid">
            <Field label="Exempt roles" hint="Members with any of these roles are not checked." error={errorUnder(errors, `${at}.exemptRoleIds`)}>
              {(ids) => (
                <IdListPicker
                  {...ids}
                  kind="role"
                  values={rule.exemptRoleIds}
                  onChange={(exemptRoleIds) => onChange({ ...rule, exemptRoleIds })}
                  directory={directory}
                  disabled={readOnly}
                />
              )}
            </Field>
            <Field label="Exempt channels" hint="Messages in these channels are not checked." error={errorUnder(errors, `${at}.exemptChannelIds`)}>
              {(ids) => (
                <IdListPicker
                  {...ids}
                  kind="channel"
                  values={rule.exemptChannelIds}
                  onChange={(exemptChannelIds) => onChange({ ...rule, exemptChannelIds })}
                  directory={directory}
                  disabled={readOnly}
                />
              )}
            </Field>
          </div>
        </CardContent>
      ) : null}
    </Card>
  );
}

/** The auto moderation card: the master switch and the rules. */
export function AutomodCard({
  guildId,
  draft,
  update,
  errors,
  readOnly,
  directory,
}: SettingsCardProps & { guildId: string; directory: GuildDirectory | undefined }) {
  const enabledCount = RULE_NAMES.filter((name) => draft.automodRules[name].enabled).length;
  return (
    <Card>
      <CardHeader>
        <div className="row row-between">
          <CardTitle className="title-with-icon">
            <ShieldAlert size={18} aria-hidden="true" /> Auto moderation
          </CardTitle>
          <Badge tone={draft.automodEnabled && enabledCount > 0 ? 'success' : 'neutral'}>
            {draft.automodEnabled ? `${enabledCount} of ${RULE_NAMES.length} rules on` : 'Off'}
          </Badge>
        </div>
        <CardDescription>The bot deletes messages that break a rule that is on, and records a case for each.</CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <SwitchRow
          label="Auto moderation"
          description="The server-wide switch, also on the Settings page. When off, no rule runs."
          checked={draft.automodEnabled}
          onChange={(automodEnabled) => update({ automodEnabled })}
          disabled={readOnly}
          error={errors.automodEnabled}
        />
        <SwitchRow
          label={AUTOMOD_STAFF_TEXT.label}
          description={draft.automodIncludeStaff ? AUTOMOD_STAFF_TEXT.included : AUTOMOD_STAFF_TEXT.spared}
          checked={draft.automodIncludeStaff}
          onChange={(automodIncludeStaff) => update({ automodIncludeStaff })}
          disabled={readOnly}
          error={errors.automodIncludeStaff}
        />
        {!draft.automodEnabled && enabledCount > 0 ? (
          <p className="notice notice-warning" role="status">
            Auto moderation is off: the {enabledCount === 1 ? 'rule' : `${enabledCount} rules`} turned on below will not run until you turn it on.
          </p>
        ) : null}
        <div className="grid grid-2 align-start">
          {RULE_NAMES.map((name) => (
            <RuleCard
              key={name}
              name={name}
              rule={draft.automodRules[name]}
              errors={errors}
              readOnly={readOnly}
              directory={directory}
              onChange={(rule) => update({ automodRules: { ...draft.automodRules, [name]: rule } })}
            />
          ))}
        </div>
        <AutomodTry guildId={guildId} draft={draft} readOnly={readOnly} />
      </CardContent>
    </Card>
  );
}
