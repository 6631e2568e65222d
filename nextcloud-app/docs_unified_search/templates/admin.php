<?php
/** @var array{form: ?string, serviceUrl: string, settingsUrl: string, confirmUrl: string} $_ */
/** @var \OCP\IL10N $l */
\OCP\Util::addScript('docs_unified_search', 'admin-settings');
\OCP\Util::addStyle('docs_unified_search', 'admin-settings');
?>
<div id="dus-admin" class="section" data-settings-url="<?php p($_['settingsUrl']); ?>" data-confirm-url="<?php p($_['confirmUrl']); ?>">
	<h2><?php p($l->t('Document archive search')); ?></h2>
	<?php if ($_['form'] === null) : ?>
		<p class="dus-unreachable" role="alert"><?php p($l->t('The docs-unified-search service %s did not answer. Check that it runs, that service_url names it and that both sides hold the same bridge secret.', [$_['serviceUrl']])); ?></p>
	<?php else : ?>
		<?php print_unescaped($_['form']); ?>
	<?php endif; ?>
</div>
