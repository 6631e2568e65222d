import type { ServiceContext } from '../context-types.js';

export interface WidgetOffer {
  readonly archiveUrl: string;
  readonly archiveAccount: string;
}

/** The widget is offered only when settings name an archive server and an archive account that exists. */
export async function widgetOffer(context: ServiceContext): Promise<WidgetOffer | null> {
  const archiveUrl = context.settings.get('docs_url');
  if (archiveUrl === undefined || archiveUrl === '') return null;
  const archiveAccount = await context.archiveAccount();
  return archiveAccount === null ? null : { archiveUrl, archiveAccount };
}
