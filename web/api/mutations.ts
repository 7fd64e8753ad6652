// Writes to a guild's API: the request, then the listed reads refreshed and the spec's toast.
import { useMutation, type QueryKey } from '@tanstack/react-query';
import { toast, type ToastInput } from '../state/toasts';
import { ApiRequestError, ConfirmationDeclined, StaleDeclined, errorMessage, queryClient } from './client';

/** A toast, or a function of the result or error that makes one. */
type Notice<T> = ToastInput | ((value: T) => ToastInput);

/** What useGuildMutation needs: the call, what to refresh, and what to say. */
export interface GuildMutationOptions<Input, Result> {
  request: (input: Input) => Promise<Result>;
  /** Query keys to refresh after success (prefixes: every read under them). */
  invalidate?: readonly QueryKey[];
  success?: Notice<Result>;
  /** The failure toast; its description defaults to the server's message. */
  failure: Notice<unknown>;
  onSuccess?: (result: Result, input: Input) => void;
  /** The person chose to reload instead of saving over changes made meanwhile: after the reads refresh, the page drops its edits. */
  onReload?: () => void;
}

/**
 * The server's sentences for a refusal (403 "You cannot hand out @Moderator...", 409, a 400 naming
 * each bad field in words): asking again changes nothing, so they replace a "Please try again"
 * description. A refusal naming fields shows them under the fields too.
 */
function refusalText(error: unknown): string | undefined {
  if (!(error instanceof ApiRequestError) || error.status < 400 || error.status >= 500 || !error.body) return undefined;
  return error.body.message;
}

/** A mutation with the dashboard's conventions: no retry, refresh what it changed, a toast either way. */
export function useGuildMutation<Input, Result>({ request, invalidate = [], success, failure, onSuccess, onReload }: GuildMutationOptions<Input, Result>) {
  return useMutation({
    mutationFn: request,
    onSuccess: async (result, input) => {
      onSuccess?.(result, input);
      await Promise.all(invalidate.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      if (success) toast(typeof success === 'function' ? success(result) : success);
    },
    onError: async (error) => {
      if (error instanceof StaleDeclined) {
        await Promise.all(invalidate.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
        onReload?.();
        return;
      }
      // The person backed out of the server's question: their choice, not a failure to report.
      if (error instanceof ConfirmationDeclined) return;
      const notice =
        typeof failure === 'function' ? failure(error) : { ...failure, description: refusalText(error) ?? failure.description ?? errorMessage(error) };
      toast({ ...notice, variant: 'destructive' });
    },
  });
}
