import type { Translation } from './en.js';

/**
 * French (fr). Formal address (“vous”). Typography: U+202F (narrow no-break space) before
 * « ? ! ; », U+00A0 (no-break space) before « : », inside guillemets and between a number and
 * its unit; written as escapes so they stay visible in review.
 */
export const fr: Translation = {
  // Shared
  poweredBy: 'Propulsé par Assist',
  close: 'Fermer',
  keyControl: 'Ctrl',
  retry: 'Réessayer',
  sources: 'Sources',
  speechStart: 'Démarrer la saisie vocale',
  speechStop: 'Arrêter la saisie vocale',
  speechListening: 'Écoute en cours…',
  errorGeneric: 'Une erreur s’est produite. Veuillez réessayer.',
  errorNetwork: 'Impossible de joindre le serveur. Vérifiez votre connexion et réessayez.',
  errorRateLimited: 'Trop de requêtes. Veuillez patienter {seconds}\u00A0secondes, puis réessayer.',
  errorOrigin: 'Ce site n’est pas autorisé à utiliser ce widget.',
  errorIdentity: 'Nous n’avons pas pu vérifier votre compte, votre historique de conversations ne peut donc pas être affiché.',

  // Chat
  chatOpen: 'Ouvrir le chat',
  chatClose: 'Fermer le chat',
  chatDefaultName: 'Assistant',
  chatInputLabel: 'Message',
  chatPlaceholder: 'Posez une question…',
  chatSend: 'Envoyer',
  chatStop: 'Arrêter',
  chatStopped: 'Interrompu.',
  chatCopy: 'Copier la réponse',
  chatCopyCode: 'Copier le code',
  chatCopied: 'Copié',
  chatNew: 'Nouvelle conversation',
  chatHistory: 'Historique',
  chatHistoryTitle: 'Vos conversations',
  chatHistoryEmpty: 'Aucune conversation pour l’instant.',
  chatBack: 'Retour au chat',
  chatKeep: 'Conserver',
  chatRelease: 'Ne pas conserver',
  chatKept: 'Conservée',
  chatDelete: 'Supprimer',
  chatDeleteAll: 'Tout supprimer',
  chatConfirmDeleteAll: 'Supprimer toutes vos conversations\u202F? Cette action est irréversible.',
  chatYou: 'Vous',
  chatLog: 'Conversation',
  chatSearching: 'Recherche en cours…',
  chatGenerating: 'Rédaction de la réponse…',
  chatAnswerReady: 'Réponse prête.',
  chatOutOfCredits: 'L’assistant ne peut pas répondre pour le moment. Ces pages peuvent vous aider\u00A0:',
  chatOutOfCreditsNoResults: 'L’assistant ne peut pas répondre pour le moment. Veuillez réessayer plus tard.',
  chatExpires: 'Supprimée après 30\u00A0jours si elle n’est pas conservée',

  // Search
  searchOpen: 'Rechercher',
  searchLabel: 'Rechercher',
  searchPlaceholder: 'Rechercher…',
  searchClear: 'Effacer',
  searchClose: 'Fermer la recherche',
  searchLoading: 'Recherche en cours…',
  searchNoResults: 'Aucun résultat pour «\u00A0{query}\u00A0»',
  searchResults_one: '{count}\u00A0résultat',
  searchResults_other: '{count}\u00A0résultats',
  searchRecent: 'Recherches récentes',
  searchRemoveRecent: 'Retirer',
  searchRemoveRecentNamed: 'Retirer « {query} » des recherches récentes',
  searchSummary: 'Résumé IA',
  searchSummaryLoading: 'Résumé en cours…',
  searchSummaryReady: 'Résumé IA prêt.',
  searchHintNavigate: 'pour naviguer',
  searchHintOpen: 'pour ouvrir',
  searchHintNewTab: 'pour ouvrir dans un nouvel onglet',
  searchHintClose: 'pour fermer',
};

export default fr;
