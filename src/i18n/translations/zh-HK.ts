import type { Translation } from './en.js';

/**
 * Chinese, Hong Kong (zh-HK). Standard written Chinese with Hong Kong usage (帳戶, 網絡, 記錄,
 * 30 日, 未能), not Cantonese colloquial forms. Polite address (“您”).
 */
export const zhHK: Translation = {
  // Shared
  poweredBy: '由 Assist 提供技術支援',
  close: '關閉',
  retry: '重試',
  sources: '來源',
  speechStart: '開始語音輸入',
  speechStop: '停止語音輸入',
  speechListening: '正在聆聽…',
  errorGeneric: '發生錯誤，請重試。',
  errorNetwork: '無法連接伺服器。請檢查網絡連接後重試。',
  errorRateLimited: '請求過多。請等候 {seconds} 秒後重試。',
  errorOrigin: '此網站未獲授權使用此小工具。',
  errorIdentity: '未能驗證您的帳戶，因此無法顯示您的對話記錄。',

  // Chat
  chatOpen: '開啟聊天',
  chatClose: '關閉聊天',
  chatDefaultName: '助理',
  chatInputLabel: '訊息',
  chatPlaceholder: '輸入您的問題…',
  chatSend: '傳送',
  chatStop: '停止',
  chatStopped: '已停止。',
  chatCopy: '複製回答',
  chatCopyCode: '複製程式碼',
  chatCopied: '已複製',
  chatNew: '新對話',
  chatHistory: '記錄',
  chatHistoryTitle: '您的對話',
  chatHistoryEmpty: '暫無對話。',
  chatBack: '返回聊天',
  chatKeep: '保留',
  chatRelease: '取消保留',
  chatKept: '已保留',
  chatDelete: '刪除',
  chatDeleteAll: '全部刪除',
  chatConfirmDeleteAll: '要刪除您的所有對話嗎？此操作無法復原。',
  chatYou: '您',
  chatSearching: '正在搜尋…',
  chatGenerating: '正在撰寫回答…',
  chatAnswerReady: '回答已完成。',
  chatOutOfCredits: '助理暫時未能回答。以下頁面或許對您有幫助：',
  chatOutOfCreditsNoResults: '助理暫時未能回答。請稍後再試。',
  chatExpires: '除非保留，否則將於 30 日後刪除',

  // Search
  searchOpen: '搜尋',
  searchLabel: '搜尋',
  searchPlaceholder: '搜尋…',
  searchClear: '清除',
  searchClose: '關閉搜尋',
  searchLoading: '正在搜尋…',
  searchNoResults: '找不到與「{query}」相關的結果',
  searchResults_one: '{count} 個結果',
  searchResults_other: '{count} 個結果',
  searchRecent: '最近搜尋',
  searchRemoveRecent: '移除',
  searchSummary: 'AI 摘要',
  searchSummaryLoading: '正在生成摘要…',
  searchHintNavigate: '切換',
  searchHintOpen: '開啟',
  searchHintNewTab: '在新分頁開啟',
  searchHintClose: '關閉',
};

export default zhHK;
